public import Foundation

/// The last answer of each provider this process called, for `/ready`: an operator sees at a
/// glance that, say, Stripe stopped answering ten minutes ago.
public final class ProviderCallRegistry: @unchecked Sendable {
    public struct LastCall: Sendable, Equatable {
        public let provider: String
        public let ok: Bool
        public let at: Date
        /// Why the call failed, in a few words that never hold credentials or a body.
        public let error: String?

        public init(provider: String, ok: Bool, at: Date, error: String?) {
            self.provider = provider
            self.ok = ok
            self.at = at
            self.error = error
        }
    }

    /// The registry every real transport of this process reports to.
    public static let shared = ProviderCallRegistry()

    private let lock = NSLock()
    private var calls: [String: LastCall] = [:]

    public init() {}

    public func record(_ call: LastCall) {
        lock.withLock { calls[call.provider] = call }
    }

    /// By provider name, so the answer's order does not change between calls.
    public var lastCalls: [LastCall] {
        lock.withLock { calls.values.sorted { $0.provider < $1.provider } }
    }
}

extension ProviderCallRegistry.LastCall {
    init(provider: String, outcome: InstrumentedProviderOutcome, at: Date) {
        self.init(provider: provider, ok: outcome.isHealthy, at: at, error: outcome.shortError)
    }
}
