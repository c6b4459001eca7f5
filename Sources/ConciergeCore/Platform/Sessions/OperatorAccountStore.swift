public import Foundation

/// The account an operator's `/ops` session names. Sessions live in the one sessions table,
/// whose rows name an account; the admin token's operator has a bare account of its own
/// (no sign-in method, no personal data), made on its first sign-in.
public protocol OperatorAccountStore: Sendable {
    func ensureOperatorAccount(id: String, name: String, at date: Date) async throws
}
