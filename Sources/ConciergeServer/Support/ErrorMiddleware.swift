import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird
import Logging
import NIOCore

/// The one place errors become responses: every failure is mapped once to a status, a code and
/// a message (`describe`), then given the body shape of the vertical that owns the path
/// (`ErrorRenderers`). Internal details are logged, never sent.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let renderers: ErrorRenderers

    init(renderers: ErrorRenderers = ErrorRenderers()) {
        self.renderers = renderers
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            let description = Self.describe(error, request: request, logger: context.logger)
            return renderers.renderer(for: request.uri.path).response(for: description)
        }
    }

    static func describe(_ error: any Error, request: Request, logger: Logger) -> ErrorDescription {
        switch error {
        case let error as ConciergeError:
            return describe(error, logger: logger)
        case let error as any ConciergeErrorConvertible:
            return describe(error.conciergeError, logger: logger)
        case is NIOTooManyBytesError:
            return ErrorDescription(
                status: .contentTooLarge, code: "payload_too_large",
                message: "The request body is larger than 64 KB. Send a smaller body.")
        case is UnsupportedMediaTypeError:
            return ErrorDescription(
                status: .unsupportedMediaType, code: "unsupported_media_type",
                message: "Send the body as JSON with the header 'Content-Type: application/json'.")
        case let error as any HTTPResponseError where error.status == .notFound:
            return ErrorDescription(
                status: .notFound, code: "not_found",
                message: "There is no \(request.method) \(request.uri.path) endpoint. See /openapi.yaml.")
        case let error as any HTTPResponseError where error.status == .methodNotAllowed:
            return ErrorDescription(
                status: .methodNotAllowed, code: "method_not_allowed",
                message: "\(request.uri.path) does not accept \(request.method).")
        case let error as any HTTPResponseError where error.status.code < 500:
            return ErrorDescription(status: error.status, code: "bad_request", message: error.status.reasonPhrase)
        default:
            let requestID = logger[metadataKey: "request_id"].map { "\($0)" } ?? "unknown"
            logger.error("unhandled error: \(String(reflecting: error))")
            return ErrorDescription(
                status: .internalServerError, code: "internal_error",
                message:
                    "Something went wrong on our side. Please try again; if it keeps happening, quote request \(requestID)."
            )
        }
    }

    /// The one mapping of a domain error, its fields and extra facts included.
    static func describe(_ error: ConciergeError, logger: Logger) -> ErrorDescription {
        let (status, retryAfter) = status(of: error.category)
        if status.code >= 500 { logger.warning("request failed: \(error.code): \(error.message)") }
        return ErrorDescription(
            status: status, code: error.code, message: error.message, retryAfter: retryAfter, fields: error.fields,
            details: error.details)
    }

    static func status(of category: ConciergeError.Category) -> (HTTPResponse.Status, Int?) {
        switch category {
        case .invalidInput: (.badRequest, nil)
        case .unauthorized: (.unauthorized, nil)
        case .forbidden: (.forbidden, nil)
        case .notFound: (.notFound, nil)
        case .conflict: (.conflict, nil)
        case .unprocessable: (.unprocessableContent, nil)
        case .tooManyRequests(let retryAfter): (.tooManyRequests, retryAfter)
        case .upstreamFailed: (.badGateway, nil)
        case .unavailable(let retryAfter): (.serviceUnavailable, retryAfter)
        }
    }

    /// A platform-shaped error answer for routes that build their own (readiness).
    static func response(status: HTTPResponse.Status, body: ErrorBody, retryAfter: Int?) -> Response {
        SuccessFlagErrorRenderer().response(
            for: ErrorDescription(status: status, code: body.code, message: body.error, retryAfter: retryAfter))
    }
}
