public import AsyncHTTPClient
import Foundation

/// The real `ProviderHTTPTransport`, on AsyncHTTPClient.
///
/// The time-out covers the whole exchange, body included: AsyncHTTPClient's deadline stops once
/// the response head has arrived, so the body is read against the same deadline separately;
/// a provider that stalls mid-body would otherwise hold a sign-in request open for ever.
public struct AsyncHTTPClientTransport: ProviderHTTPTransport {
    private let client: HTTPClient
    private let maxResponseBytes: Int

    /// - Parameters:
    ///   - client: injectable so a server can share one connection pool; the process-wide
    ///     singleton needs no shutdown.
    ///   - maxResponseBytes: provider answers are small JSON documents; anything larger is a
    ///     broken or hostile endpoint and is treated as unreachable instead of buffered.
    public init(client: HTTPClient = .shared, maxResponseBytes: Int = 1 << 20) {
        self.client = client
        self.maxResponseBytes = maxResponseBytes
    }

    /// Every real provider call of the process passes here, so this is where they are traced,
    /// counted and remembered for `/ready`. AsyncHTTPClient itself adds a span below this one and
    /// sends its `traceparent` when a tracer is bootstrapped.
    public func send(_ request: ProviderHTTPRequest, timeout: Duration) async throws -> ProviderHTTPResponse {
        try await ProviderCallInstrumentation.standard.measure(request, propagating: false) {
            try await exchange($0, timeout: timeout)
        }
    }

    private func exchange(_ request: ProviderHTTPRequest, timeout: Duration) async throws -> ProviderHTTPResponse {
        let deadline = ContinuousClock.now + timeout
        let maxResponseBytes = self.maxResponseBytes
        do {
            // AsyncHTTPClient enforces the deadline up to the response head itself, and reports
            // the real cause (say, connection refused) when it had one.
            let response = try await client.execute(
                Self.clientRequest(request), timeout: .nanoseconds(Self.nanoseconds(timeout)))
            let body = try await Self.before(deadline) { try await response.body.collect(upTo: maxResponseBytes) }
            return ProviderHTTPResponse(
                status: Int(response.status.code),
                headers: response.headers.map { ($0.name, $0.value) },
                body: Data(body.readableBytesView)
            )
        } catch {
            throw Self.transportError(for: error)
        }
    }

    private static func clientRequest(_ request: ProviderHTTPRequest) -> HTTPClientRequest {
        var clientRequest = HTTPClientRequest(url: request.url)
        clientRequest.method = .init(rawValue: request.method)
        for (name, value) in request.headers {
            clientRequest.headers.add(name: name, value: value)
        }
        if let body = request.body {
            clientRequest.body = .bytes(body, length: .known(Int64(body.count)))
        }
        return clientRequest
    }

    /// Races `operation` against `deadline`; whichever finishes first wins and the other is
    /// cancelled (both AsyncHTTPClient's body stream and `Task.sleep` stop promptly then).
    private static func before<T: Sendable>(
        _ deadline: ContinuousClock.Instant, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                throw ProviderTransportError.timedOut
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw ProviderTransportError.timedOut }
            return first
        }
    }

    /// Time-outs become `.timedOut`, cancellation of the caller stays cancellation, and
    /// everything else (refused, reset, TLS, DNS, oversized body) means the provider could not
    /// be reached properly.
    private static func transportError(for error: any Error) -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        if let transportError = error as? ProviderTransportError { return transportError }
        if let clientError = error as? HTTPClientError, timeoutErrors.contains(clientError) {
            return ProviderTransportError.timedOut
        }
        return ProviderTransportError.unreachable(String(describing: error))
    }

    private static let timeoutErrors: [HTTPClientError] = [
        .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout,
        .getConnectionFromPoolTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout,
    ]

    /// `Duration` to whole nanoseconds, saturating instead of trapping on absurd values.
    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || attoseconds > 0 else { return 0 }
        let (wholeSeconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return Int64.max }
        let (total, overflowAgain) = wholeSeconds.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowAgain ? Int64.max : total
    }
}
