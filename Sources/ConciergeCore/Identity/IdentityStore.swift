public import Foundation

/// Persistence for sign-in. Everything limits and sessions rely on lives here, so several server
/// instances on one database enforce one set of limits and accept each other's sessions.
public protocol IdentityStore: Sendable {
    /// Runs `body` in one database transaction that holds exclusive locks on `keys` until it
    /// ends: two requests (or two server instances) touching the same phone or IP are serialised,
    /// so a count-then-record cannot be raced. Throwing rolls everything back.
    func transaction<T: Sendable>(
        locking keys: [String],
        _ body: @escaping @Sendable (any IdentityTransaction) async throws -> T
    ) async throws -> T

    func customer(id: String) async throws -> Customer?
    /// Sets name and email; returns the updated customer, or nil when there is none.
    func updateCustomer(id: String, name: String?, email: String?) async throws -> Customer?

    /// The session and its customer for a token hash, whatever its state.
    func session(tokenHash: String) async throws -> (StoredSession, Customer)?
    /// Marks the session revoked; returns false when it was unknown or revoked already.
    func revokeSession(tokenHash: String, at: Date) async throws -> Bool
}

/// The sliding-window events every throttle counts (SMS sends, code checks, password sign-ins).
/// Methods run inside the transaction that handed the log out.
public protocol RateEventLog: Sendable {
    /// Times of the events recorded for `key` at or after `since`, oldest first.
    func rateEvents(key: String, since: Date) async throws -> [Date]
    func recordRateEvent(key: String, at: Date, attemptID: String) async throws
    /// Forgets events for `key` older than `before`; they can no longer affect any limit.
    func pruneRateEvents(key: String, before: Date) async throws
}

/// What a sign-in transaction can do. Methods run inside the transaction that handed it out.
public protocol IdentityTransaction: RateEventLog {
    /// Withdraws the events an attempt recorded under `keys` (a send that failed on our side).
    func deleteRateEvents(attemptID: String, keys: [String]) async throws

    func challenge(phone: PhoneNumber) async throws -> CodeChallenge?
    /// Stores `challenge` as the phone's only challenge, replacing any earlier one.
    func replaceChallenge(_ challenge: CodeChallenge) async throws
    /// Counts one guess against the challenge if it still exists and has guesses left;
    /// returns the new count, or nil when no guess could be reserved.
    func reserveGuess(phone: PhoneNumber, challengeID: String, maxGuesses: Int) async throws -> Int?
    /// Gives back a reserved guess (the provider could not check it).
    func releaseGuess(phone: PhoneNumber, challengeID: String) async throws
    /// Deletes the challenge if it is still the one given; returns whether it was.
    func deleteChallenge(phone: PhoneNumber, challengeID: String) async throws -> Bool

    func customer(phone: PhoneNumber) async throws -> Customer?
    /// The account a phone signs in to when it has no rides profile yet (a phone linked to an
    /// account that was made by email or a provider).
    func accountID(phone: PhoneNumber) async throws -> String?
    /// Creates the rides profile and, when `customer.id` names no account yet, the account and
    /// its verified phone credential.
    func insertCustomer(_ customer: Customer) async throws
    func insertSession(_ session: StoredSession) async throws
}
