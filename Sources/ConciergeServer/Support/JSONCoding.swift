import ConciergeCore
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
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw ConciergeError(.invalidInput, code: "invalid_request", message: Self.explain(error))
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

    static func explain(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return "The field '\(field)' is missing."
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = path(context.codingPath)
            return field.isEmpty
                ? "The request body must be a JSON object."
                : "The field '\(field)' must be \(Self.describe(type))."
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            return field.isEmpty ? "The request body is not valid JSON." : "The field '\(field)' has an invalid value."
        @unknown default:
            return "The request body could not be read."
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "of another type"
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
