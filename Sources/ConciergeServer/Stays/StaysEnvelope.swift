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

/// Errors under `/stays` in the wrapper: `data: null`, the error code as `errorType`.
struct StaysErrorRenderer: ErrorRenderer {
    func body(for error: ErrorDescription) throws -> Data {
        try Wire.encoder.encode(
            Stays.APIResponse<Stays.Empty>(
                data: nil, status: error.status.code, message: error.message, errorType: error.code,
                timeStamp: StaysEnvelope.timeStamp()))
    }
}

/// Renders the stays routes' errors: validation errors with their fields (which the platform's
/// error description has no place for), everything else through the one mapping
/// (`ErrorMiddleware.describe`) into the wrapper.
struct StaysErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as StaysValidationError {
            return try StaysEnvelope.response(
                Stays.ValidationFields(fields: error.fields), status: error.conflict ? .conflict : .badRequest,
                message: error.message, errorType: "validation")
        } catch {
            let description = ErrorMiddleware<Context>.describe(error, request: request, logger: context.logger)
            return StaysErrorRenderer().response(for: description)
        }
    }
}
