import ConciergeCore
import ConciergeModels
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The seed's `APIResponse` wrapper on every stays answer. `timeStamp` is when the answer was
/// sent — a fact of the transport, not a domain rule — so it is the wall clock even in tests
/// whose domain clock stands still.
enum StaysEnvelope {
    static func timeStamp() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    static func response<T: Codable & Sendable>(
        _ data: T?, status: HTTPResponse.Status = .ok, message: String = "OK", errorType: String? = nil,
        headers: HTTPFields = [:]
    ) throws -> Response {
        let body = Stays.APIResponse(
            data: data, status: status.code, message: message, errorType: errorType, timeStamp: timeStamp())
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(
            status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: try Wire.encoder.encode(body))))
    }

    /// The room search's answer, written without `JSONEncoder` (see `StaysRooms+JSON.swift`).
    static func rooms(_ rooms: [Stays.RoomHotel], message: String) -> Response {
        let body = Stays.APIResponse(
            data: rooms, status: HTTPResponse.Status.ok.code, message: message, errorType: nil, timeStamp: timeStamp())
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: body.json))
    }
}

/// Errors under `/stays` in the wrapper: the error code as `errorType`, `data: null`, or
/// `data: {"fields": {…}}` (and any extra facts) when the error names fields to correct.
struct StaysErrorRenderer: ErrorRenderer {
    let signIn: String? =
        "Sign in again with your username and password (POST /stays/login), or renew the session with your refresh token (POST /stays/auth/refresh)."

    func body(for error: ErrorDescription) throws -> Data {
        let data: ErrorPayload.Value =
            ErrorPayload.hasExtras(error)
            ? .payload(ErrorPayload(fixed: [:], fields: error.fields, details: error.details)) : .null
        return try Wire.encoder.encode(
            ErrorPayload(
                fixed: [
                    "data": data, "status": .number(error.status.code), "messsage": .detail(.text(error.message)),
                    "message": .detail(.text(error.message)), "errorType": .detail(.text(error.code)),
                    "timeStamp": .number(Int(StaysEnvelope.timeStamp())),
                ], fields: [:], details: [:]))
    }
}
