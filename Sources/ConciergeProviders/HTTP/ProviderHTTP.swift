public import Foundation

/// One outgoing provider call, as plain values.
///
/// Adapters build these instead of talking to an HTTP library directly, so the exact bytes they
/// send (URL, headers, form body) can be checked in tests without a network, and the real
/// client can be swapped without touching the adapters.
public struct ProviderHTTPRequest: Sendable {
    public var method: String
    public var url: String
    /// Ordered, because some providers and all tests care about the order of repeated headers.
    public var headers: [(String, String)]
    public var body: Data?

    public init(method: String, url: String, headers: [(String, String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, matched case-insensitively as HTTP requires.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }
}

/// A provider's answer, whatever its status: adapters, not transports, decide what a status means.
public struct ProviderHTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: Data

    public init(status: Int, headers: [(String, String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, matched case-insensitively as HTTP requires.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }
}

/// Why no response arrived at all. Kept apart from HTTP error statuses because it means "the
/// provider may be fine, we just could not reach it in time", which callers treat as retryable.
public enum ProviderTransportError: Error, Sendable, Equatable {
    /// The whole exchange did not finish within the time-out the adapter asked for.
    case timedOut
    /// No connection could be made or it broke; the text is for logs and never holds credentials.
    case unreachable(String)
}

/// Sends one request and returns the response, whatever its status.
///
/// Implementations throw `ProviderTransportError` when no response arrived, and let
/// `CancellationError` through when the calling task was cancelled. They never retry: whether a
/// call is safe to repeat is the adapter's decision.
public protocol ProviderHTTPTransport: Sendable {
    func send(_ request: ProviderHTTPRequest, timeout: Duration) async throws -> ProviderHTTPResponse
}
