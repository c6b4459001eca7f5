import ConciergeCore

/// The commute adapters' failures. The planner answers any of them with its heuristic, so
/// these only reach logs and tests.
enum CommuteProviderFailure {
    static func status(_ provider: String, _ status: Int, _ detail: String) -> ConciergeError {
        ConciergeError(
            status == 429 || status >= 500 ? .unavailable(retryAfterSeconds: nil) : .upstreamFailed,
            code: "\(provider)_failed", message: "\(provider) answered \(status): \(detail)")
    }

    static func unreadable(_ provider: String) -> ConciergeError {
        ConciergeError(.upstreamFailed, code: "\(provider)_failed", message: "\(provider) sent an unreadable answer.")
    }

    /// A short excerpt of an error body for the log (never the request, which holds keys).
    static func excerpt(_ body: [UInt8]) -> String {
        String(decoding: body.prefix(200), as: UTF8.self)
    }
}
