/// How one provider call ended, as the `result` label of `concierge_provider_requests_total`.
enum InstrumentedProviderOutcome: Sendable, Equatable {
    case answered(status: Int)
    case timedOut
    case unreachable

    var resultLabel: String {
        switch self {
        case .answered: isHealthy ? "ok" : "http_error"
        case .timedOut: "timeout"
        case .unreachable: "unreachable"
        }
    }

    /// A provider that answers 4xx is working: a declined card (402) or a wrong code (404) is
    /// about the request, not the provider. Server errors, refused credentials and rate limits
    /// are what an operator must see.
    var isHealthy: Bool {
        switch self {
        case .answered(let status): status < 500 && ![401, 403, 429].contains(status)
        case .timedOut, .unreachable: false
        }
    }

    /// Deliberately coarse: transport error texts can name hosts and paths, never worth the risk.
    var shortError: String? {
        switch self {
        case .answered(let status): isHealthy ? nil : "HTTP \(status)"
        case .timedOut: "timed out"
        case .unreachable: "unreachable"
        }
    }
}
