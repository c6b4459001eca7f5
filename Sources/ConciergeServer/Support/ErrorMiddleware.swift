import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird
import Logging
import NIOCore

/// The one place errors become responses: every failure leaves as
/// `{"success": false, "error": …, "code": …}` with the status its category implies.
/// Internal details are logged, never sent.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            let (status, body, retryAfter) = Self.describe(error, request: request, logger: context.logger)
            return Self.response(status: status, body: body, retryAfter: retryAfter)
        }
    }

    static func describe(_ error: any Error, request: Request, logger: Logger) -> (
        HTTPResponse.Status, ErrorBody, Int?
    ) {
        switch error {
        case let error as ConciergeError:
            let (status, retryAfter) = status(of: error.category)
            if status.code >= 500 { logger.warning("request failed: \(error.code): \(error.message)") }
            return (status, ErrorBody(error: error.message, code: error.code), retryAfter)
        case is NIOTooManyBytesError:
            return (
                .contentTooLarge,
                ErrorBody(
                    error: "The request body is larger than 64 KB. Send a smaller body.", code: "payload_too_large"),
                nil
            )
        case let error as any HTTPResponseError where error.status == .notFound:
            return (
                .notFound,
                ErrorBody(
                    error: "There is no \(request.method) \(request.uri.path) endpoint. See /openapi.yaml.",
                    code: "not_found"),
                nil
            )
        case let error as any HTTPResponseError where error.status == .methodNotAllowed:
            return (
                .methodNotAllowed,
                ErrorBody(error: "\(request.uri.path) does not accept \(request.method).", code: "method_not_allowed"),
                nil
            )
        case let error as any HTTPResponseError where error.status.code < 500:
            return (error.status, ErrorBody(error: error.status.reasonPhrase, code: "bad_request"), nil)
        default:
            let requestID = logger[metadataKey: "request_id"].map { "\($0)" } ?? "unknown"
            logger.error("unhandled error: \(String(reflecting: error))")
            return (
                .internalServerError,
                ErrorBody(
                    error:
                        "Something went wrong on our side. Please try again; if it keeps happening, quote request \(requestID).",
                    code: "internal_error"),
                nil
            )
        }
    }

    static func status(of category: ConciergeError.Category) -> (HTTPResponse.Status, Int?) {
        switch category {
        case .invalidInput: (.badRequest, nil)
        case .unauthorized: (.unauthorized, nil)
        case .notFound: (.notFound, nil)
        case .conflict: (.conflict, nil)
        case .tooManyRequests(let retryAfter): (.tooManyRequests, retryAfter)
        case .upstreamFailed: (.badGateway, nil)
        case .unavailable(let retryAfter): (.serviceUnavailable, retryAfter)
        }
    }

    static func response(status: HTTPResponse.Status, body: ErrorBody, retryAfter: Int?) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        let data = (try? Wire.encoder.encode(body)) ?? Data()
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
