import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird
import NIOCore

extension Request {
    /// Decodes a JSON body, turning every way it can be wrong into a 400 that names the field.
    /// Bodies over the context's limit become 413 (via `NIOTooManyBytesError`). A body that is
    /// not declared `application/json` is refused with 415 before it is read: a browser sends a
    /// `text/plain` or form POST to another site without asking first (a CORS "simple request"),
    /// so accepting them would let any web page make its visitors send sign-in codes.
    func decodeJSON<T: Decodable>(_ type: T.Type, context: some RequestContext) async throws -> T {
        try Self.decode(T.self, from: try await jsonBody(context: context))
    }

    /// Decodes a PATCH body, refusing fields that cannot be changed or do not exist (400, each
    /// named in `fields`) rather than answering 200 with them silently dropped. The fields that
    /// can be changed are `T`'s stored properties (its JSON keys); `fixed` gives the reason for
    /// a field a person might expect to change here (`email`: "changed through …").
    func decodePatch<T: Decodable>(
        _ type: T.Type, context: some RequestContext, fixed: [String: String] = [:], code: String = "invalid_fields"
    ) async throws -> T {
        let data = try await jsonBody(context: context)
        let value = try Self.decode(T.self, from: data)
        let changeable = Set(Mirror(reflecting: value).children.compactMap(\.label))
        let sent = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?.keys.map { $0 } ?? []
        let refused = sent.filter { !changeable.contains($0) }.sorted()
        guard !refused.isEmpty else { return value }
        let accepted = changeable.sorted().joined(separator: ", ")
        var fields: [String: String] = [:]
        for field in refused.prefix(20) {
            let name = String(field.prefix(60))
            fields[name] = fixed[field] ?? "'\(name)' is not a field that can be changed here; send only \(accepted)."
        }
        let names = refused.prefix(20).map { "'\($0.prefix(60))'" }.joined(separator: ", ")
        throw ConciergeError(
            .invalidInput, code: code,
            message: refused.count == 1 && fixed[refused[0]] != nil
                ? fixed[refused[0]] ?? "" : "These fields cannot be changed here: \(names). Send only \(accepted).",
            fields: fields)
    }

    /// The body of a JSON request, checked for its media type, its size and a NUL.
    private func jsonBody(context: some RequestContext) async throws -> Data {
        guard Self.declaresJSON(headers[.contentType]) else { throw UnsupportedMediaTypeError() }
        let buffer = try await body.collect(upTo: context.maxUploadSize)
        guard buffer.readableBytes > 0 else {
            throw ConciergeError(.invalidInput, code: "invalid_request", message: "The request needs a JSON body.")
        }
        // JSON can carry a NUL only escaped; no field of ours has a use for one, and databases cut
        // text at it or refuse it (security review finding 14).
        if Self.containsEscapedNUL(buffer.readableBytesView) {
            throw ConciergeError(
                .invalidInput, code: "invalid_request", message: "The request contains a NUL character (\\u0000).")
        }
        return Data(buffer: buffer)
    }

    /// Decodes, turning a `DecodingError` into a 400 that names the field (in `fields` too).
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            let (field, message) = explain(error, hints: (T.self as? any WireFieldHints.Type)?.fieldHints ?? [:])
            throw ConciergeError(
                .invalidInput, code: "invalid_request", message: message,
                fields: field.map { [$0: message] } ?? [:])
        } catch {
            throw ConciergeError(.invalidInput, code: "invalid_request", message: "The request body is not valid JSON.")
        }
    }

    /// Whether the body holds `\u0000` outside of an escaped backslash.
    static func containsEscapedNUL(_ bytes: ByteBufferView) -> Bool {
        var index = bytes.startIndex
        while let slash = bytes[index...].firstIndex(of: UInt8(ascii: "\\")) {
            let next = bytes.index(after: slash)
            guard next < bytes.endIndex else { return false }
            if bytes[next] == UInt8(ascii: "u"), bytes.distance(from: next, to: bytes.endIndex) >= 5,
                bytes[bytes.index(next, offsetBy: 1)...bytes.index(next, offsetBy: 4)].allSatisfy({
                    $0 == UInt8(ascii: "0")
                })
            {
                return true
            }
            // Skip the escaped character, so `\\u0000` (a backslash, then text) is not a NUL.
            index = bytes.index(after: next)
            guard index < bytes.endIndex else { return false }
        }
        return false
    }

    /// `application/json`, with or without parameters (`; charset=utf-8`), any letter case.
    static func declaresJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }

    /// The field a decoding error is about (`checkIn`, `specificSeatIds[0]`, `pickup.placeId`)
    /// and a sentence naming it and what it must be.
    static func explain(_ error: DecodingError, hints: [String: String] = [:]) -> (field: String?, message: String) {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce(into: "") { path, key in
                if let index = key.intValue {
                    path += "[\(index)]"
                } else {
                    path += (path.isEmpty ? "" : ".") + String(key.stringValue.prefix(60))
                }
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return (field, "The field '\(field)' is missing.")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = path(context.codingPath)
            guard !field.isEmpty else { return (nil, "The request body must be a JSON object.") }
            return (field, "The field '\(field)' must be \(hints[field] ?? Self.describe(type)).")
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            guard !field.isEmpty else { return (nil, "The request body is not valid JSON.") }
            if let hint = hints[field] { return (field, "The field '\(field)' must be \(hint).") }
            return (field, "The field '\(field)' has an invalid value.")
        @unknown default:
            return (nil, "The request body could not be read.")
        }
    }

    /// What a Swift type is on the wire, in words.
    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is Substring.Type: "a string"
        case is Int.Type, is Int64.Type, is Int32.Type, is Int16.Type, is Int8.Type, is UInt.Type, is UInt64.Type,
            is UInt32.Type, is UInt16.Type, is UInt8.Type:
            "a whole number"
        case is Double.Type, is Float.Type, is Decimal.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "a list"
        case is [String: Any].Type: "an object"
        case let described as any WireTypeDescribed.Type: described.wireDescription
        default: "an object"
        }
    }
}

/// A JSON route was sent a body of another media type (answered 415 `unsupported_media_type`).
struct UnsupportedMediaTypeError: Error {}

/// Encodes a `Codable` value as a JSON response.
func jsonResponse(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
    let data = try Wire.encoder.encode(value)
    return Response(
        status: status, headers: [.contentType: "application/json; charset=utf-8"],
        body: .init(byteBuffer: ByteBuffer(bytes: data)))
}
