import ConciergeCore
import Logging

extension ProviderHTTPTransport {
    /// Sends `request`, and once more after `backoff` when the provider answered 5xx or did not
    /// answer at all. Only for calls that are safe to repeat (reads, or writes carrying an
    /// idempotency key). A second transport failure becomes `unavailable`.
    func sendRetryingOnce(
        _ request: ProviderHTTPRequest, timeout: Duration, backoff: Duration, provider: String, operation: String,
        logger: Logger, unavailable: () -> ConciergeError
    ) async throws -> ProviderHTTPResponse {
        var attempt = 1
        while true {
            do {
                let response = try await send(request, timeout: timeout)
                guard attempt < 2, (500...599).contains(response.status) else { return response }
                logger.info(
                    "\(provider) \(operation) answered \(response.status); retrying once",
                    metadata: ["http_status": "\(response.status)"])
            } catch let error as ProviderTransportError {
                guard attempt < 2 else {
                    logger.warning("\(provider) \(operation) unreachable", metadata: ["transport_error": "\(error)"])
                    throw unavailable()
                }
                logger.info(
                    "\(provider) \(operation) got no answer; retrying once", metadata: ["transport_error": "\(error)"])
            }
            attempt += 1
            if backoff > .zero {
                try await Task.sleep(for: backoff)
            } else {
                try Task.checkCancellation()
            }
        }
    }
}
