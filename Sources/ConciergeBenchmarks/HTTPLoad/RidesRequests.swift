import Foundation

/// The rides requests the load scenarios and the crash drill both send.
extension LoadRequest {
    /// `POST /rides/app-book` as ConciergeKit sends it: signed in, with an `Idempotency-Key`.
    static func book(_ body: String, token: String, idempotencyKey: String = UUID().uuidString) -> LoadRequest {
        .postJSON("/rides/app-book", body, token: token, headers: [("Idempotency-Key", idempotencyKey)])
    }

    /// Pressing Pay on the sandbox checkout page at `checkoutPath`.
    static func payInSandbox(_ checkoutPath: String) -> LoadRequest {
        LoadRequest(
            method: .POST, uri: checkoutPath, headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "outcome=paid")
    }

    /// The path and query of a URL the server gave out (its port changes with every restart).
    static func path(of url: String) -> String? {
        guard let components = URLComponents(string: url), !components.path.isEmpty else { return nil }
        return components.percentEncodedQuery.map { "\(components.percentEncodedPath)?\($0)" }
            ?? components.percentEncodedPath
    }
}
