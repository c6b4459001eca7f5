import Foundation
import HTTPTypes
import Hummingbird

/// Behind a proxy Concierge trusts, the client is the last address the proxy appended to
/// X-Forwarded-For; otherwise the header is ignored, since anyone can send it.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let trustProxy: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard trustProxy, let forwarded = request.headers[.xForwardedFor] else {
            return try await next(request, context)
        }
        var context = context
        if let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty,
            last.count <= 64
        {
            context.clientIP = last
        }
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let xRequestID = Self("X-Request-Id")!
}
