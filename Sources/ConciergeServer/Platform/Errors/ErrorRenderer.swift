import ConciergeModels
public import Foundation
public import HTTPTypes
import Hummingbird
import NIOCore

/// What a failed request means to a client — status, machine code, a message a person can act
/// on — before a vertical gives it the body shape its contract names.
public struct ErrorDescription: Sendable, Equatable {
    public let status: HTTPResponse.Status
    public let code: String
    public let message: String
    /// Seconds, sent as `Retry-After` (429 and 503).
    public let retryAfter: Int?

    public init(status: HTTPResponse.Status, code: String, message: String, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }
}

/// A vertical's error body. Rides and events answer `{"success": false, "error", "code"}`; stays
/// wraps errors in its `APIResponse`. Errors are mapped to statuses once (`ErrorMiddleware`); only
/// the body differs.
public protocol ErrorRenderer: Sendable {
    func body(for error: ErrorDescription) throws -> Data
}

extension ErrorRenderer {
    func response(for error: ErrorDescription) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfter = error.retryAfter { headers[.retryAfter] = String(retryAfter) }
        let data = (try? body(for: error)) ?? Data()
        return Response(status: error.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// `{"success": false, "error": "…", "code": "…"}`: the rides contract's error body, also the
/// platform's own routes' and the events contract's.
public struct SuccessFlagErrorRenderer: ErrorRenderer {
    public init() {}

    public func body(for error: ErrorDescription) throws -> Data {
        try Wire.encoder.encode(ErrorBody(error: error.message, code: error.code))
    }
}

/// Which renderer answers a path: the vertical whose prefix it starts with, else the platform's.
/// Chosen by path rather than by route group so that 404 and 405 — which no route group sees —
/// are shaped like the vertical's other errors too.
public struct ErrorRenderers: Sendable {
    private let fallback: any ErrorRenderer
    private let byPrefix: [(prefix: String, renderer: any ErrorRenderer)]

    public init(fallback: any ErrorRenderer = SuccessFlagErrorRenderer(), byPrefix: [String: any ErrorRenderer] = [:]) {
        self.fallback = fallback
        // Longest prefix first, so `/stays/admin` can differ from `/stays`.
        self.byPrefix = byPrefix.map { (prefix: "/" + $0.key.trimmingSlashes, renderer: $0.value) }
            .sorted { $0.prefix.count > $1.prefix.count }
    }

    public func renderer(for path: String) -> any ErrorRenderer {
        for entry in byPrefix where path == entry.prefix || path.hasPrefix(entry.prefix + "/") {
            return entry.renderer
        }
        return fallback
    }
}

extension String {
    fileprivate var trimmingSlashes: String {
        String(drop { $0 == "/" }.reversed().drop { $0 == "/" }.reversed())
    }
}
