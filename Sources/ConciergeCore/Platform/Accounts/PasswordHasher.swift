/// Hashes and checks passwords. Implementations are deliberately slow (bcrypt) and must not run
/// on the event loop or the cooperative pool; they say where they run instead.
public protocol PasswordHasher: Sendable {
    func hash(_ password: String) async throws -> String
    func verify(_ password: String, against hash: String) async throws -> Bool
    /// A hash of a password nobody has, checked when a login is unknown so that answering
    /// "no such account" takes as long as "wrong password". Made where `hash` runs, when first
    /// needed, not at start-up.
    func decoyHash() async throws -> String
}
