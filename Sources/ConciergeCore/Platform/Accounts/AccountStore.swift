public import Foundation

/// Persistence for accounts. Every change that must hold under concurrency (one credential per
/// identifier, a token spent once) is a constraint or a conditional write in the transaction.
public protocol AccountStore: Sendable {
    /// Runs `body` in one transaction holding exclusive locks on `keys` (sorted, so no deadlock).
    func transaction<T: Sendable>(
        locking keys: [String],
        _ body: @escaping @Sendable (any AccountTransaction) async throws -> T
    ) async throws -> T

    /// The live (not deleted) account with its credentials.
    func account(id: String) async throws -> AccountOverview?
}

/// What an account transaction can do; methods run inside the transaction that handed it out.
public protocol AccountTransaction: RateEventLog {
    func credential(kind: CredentialKind, identifier: String) async throws -> StoredCredential?
    func credentials(accountID: String) async throws -> [StoredCredential]
    func insertAccount(id: String, displayName: String?, at: Date) async throws
    /// Inserts the credential unless its (kind, identifier) is taken; returns whether it was.
    func insertCredential(_ credential: StoredCredential) async throws -> Bool
    /// Marks a credential verified; returns false when it does not belong to `accountID`.
    func markVerified(kind: CredentialKind, identifier: String, accountID: String, at: Date) async throws -> Bool
    /// Sets the password of every email and username credential of the account.
    func setPassword(accountID: String, hash: String) async throws

    func insertToken(_ token: AccountToken) async throws
    /// Spends an unexpired, unspent token of `purpose` (a conditional update, so it works once).
    func spendToken(hash: String, purpose: AccountToken.Purpose, at: Date) async throws -> AccountToken?
    /// The unexpired, unspent token of `purpose`, left unspent (a reset looks it up before it
    /// hashes the new password, so a made-up token costs no bcrypt).
    func unspentToken(hash: String, purpose: AccountToken.Purpose, at: Date) async throws -> AccountToken?
    /// Removes every credential of the account but the email `keeping`, and that one's password
    /// (a mailbox proven for the first time wins over whatever was made before the proof).
    func dropCredentials(accountID: String, keepingEmail keeping: String) async throws

    /// Moves every credential of `from` to `into`, points `from`'s sessions at `into`, and
    /// marks `from` deleted (a tombstone: nothing personal is left on it).
    func mergeAccount(_ from: String, into: String, at: Date) async throws
    /// Whether the account has a rides profile (rides bookings reference it by id).
    func hasRidesProfile(accountID: String) async throws -> Bool
    /// Erases the account's personal data: credentials, tokens, sessions, names, the rides
    /// profile's phone, name and email; bookings stay for accounting, without personal columns.
    func eraseAccount(id: String, at: Date) async throws
    /// Ends every session of the account (a password reset).
    func revokeSessions(accountID: String, at: Date) async throws

    /// Queues an email in the outbox, in this transaction.
    func enqueueEmail(dedupeKey: String, to: String, subject: String, body: String, at: Date) async throws
}

extension AccountTransaction {
    /// For stores that cannot look tokens up without spending them; the SQL store can.
    public func unspentToken(hash: String, purpose: AccountToken.Purpose, at: Date) async throws -> AccountToken? {
        throw ConciergeError.accountStoreLacks("unspentToken")
    }

    /// For stores that cannot drop credentials; the SQL store can.
    public func dropCredentials(accountID: String, keepingEmail keeping: String) async throws {
        throw ConciergeError.accountStoreLacks("dropCredentials")
    }
}

extension ConciergeError {
    static func accountStoreLacks(_ operation: String) -> ConciergeError {
        ConciergeError(
            .unavailable(retryAfterSeconds: nil), code: "account_store_incomplete",
            message: "This account store cannot \(operation); use the platform's SQL account store for it.")
    }
}
