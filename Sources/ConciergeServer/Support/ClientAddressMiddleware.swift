import ConciergeCore
import Foundation
import HTTPTypes
import Hummingbird

/// Behind proxies Concierge trusts, the client is the address the outermost trusted proxy
/// appended to X-Forwarded-For: with `hops` proxies in a row (a CDN, then a load balancer) that
/// is the `hops`-th address from the end; everything before it was written by the client and
/// proves nothing. Without trusted proxies the header is ignored, since anyone can send it. A
/// value that is not an IP address is ignored too (the peer's address stays).
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let trustProxy: Bool
    var hops = 1

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard trustProxy, let forwarded = request.headers[.xForwardedFor] else {
            return try await next(request, context)
        }
        var context = context
        let addresses = forwarded.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if addresses.count >= hops {
            let client = addresses[addresses.count - hops]
            if client.count <= 64, ClientNetwork.isAddress(client) { context.clientIP = client }
        }
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let xRequestID = Self("X-Request-Id")!
}
