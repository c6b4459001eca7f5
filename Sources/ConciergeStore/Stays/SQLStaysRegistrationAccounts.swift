public import ConciergeCore
import Foundation

/// The platform's `AccountStore` for one stays registration: the same statements as
/// `SQLAccountStore`, and when the account row goes in, the guest profile goes in with it — in
/// the account's own transaction. A registration is then one commit (account, credentials,
/// verification email, guest), and a crash cannot leave an account without its profile.
public struct SQLStaysRegistrationAccounts: AccountStore {
    private let database: any SQLDatabase
    private let guest: StaysAccountService.NewGuest

    public init(database: any SQLDatabase, guest: StaysAccountService.NewGuest) {
        self.database = database
        self.guest = guest
    }

    public func transaction<T: Sendable>(
        locking keys: [String],
        _ body: @escaping @Sendable (any AccountTransaction) async throws -> T
    ) async throws -> T {
        let guest = self.guest
        return try await database.transaction(lockKeys: keys) { db in
            try await body(RegisteringTransaction(base: SQLAccountTransaction(db: db), db: db, guest: guest))
        }
    }

    public func account(id: String) async throws -> AccountOverview? {
        try await SQLAccountStore(database: database).account(id: id)
    }
}

/// `SQLAccountTransaction`, with the guest profile written beside a new account.
private struct RegisteringTransaction: AccountTransaction {
    let base: SQLAccountTransaction
    let db: any SQLExecutor
    let guest: StaysAccountService.NewGuest

    func insertAccount(id: String, displayName: String?, at date: Date) async throws {
        try await base.insertAccount(id: id, displayName: displayName, at: date)
        try await db.query(
            """
            INSERT INTO stays_guests (account_id, username, first_name, last_name, email, phone, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id) DO NOTHING
            """,
            [
                .text(id), .text(guest.username), .text(guest.firstName), .text(guest.lastName), .text(guest.email),
                .text(guest.phone), SQLValue(date),
            ])
    }

    func rateEvents(key: String, since: Date) async throws -> [Date] {
        try await base.rateEvents(key: key, since: since)
    }

    func recordRateEvent(key: String, at date: Date, attemptID: String) async throws {
        try await base.recordRateEvent(key: key, at: date, attemptID: attemptID)
    }

    func pruneRateEvents(key: String, before date: Date) async throws {
        try await base.pruneRateEvents(key: key, before: date)
    }

    func credential(kind: CredentialKind, identifier: String) async throws -> StoredCredential? {
        try await base.credential(kind: kind, identifier: identifier)
    }

    func credentials(accountID: String) async throws -> [StoredCredential] {
        try await base.credentials(accountID: accountID)
    }

    func insertCredential(_ credential: StoredCredential) async throws -> Bool {
        try await base.insertCredential(credential)
    }

    func markVerified(kind: CredentialKind, identifier: String, accountID: String, at date: Date) async throws -> Bool {
        try await base.markVerified(kind: kind, identifier: identifier, accountID: accountID, at: date)
    }

    func setPassword(accountID: String, hash: String) async throws {
        try await base.setPassword(accountID: accountID, hash: hash)
    }

    func insertToken(_ token: AccountToken) async throws {
        try await base.insertToken(token)
    }

    func spendToken(hash: String, purpose: AccountToken.Purpose, at date: Date) async throws -> AccountToken? {
        try await base.spendToken(hash: hash, purpose: purpose, at: date)
    }

    func unspentToken(hash: String, purpose: AccountToken.Purpose, at date: Date) async throws -> AccountToken? {
        try await base.unspentToken(hash: hash, purpose: purpose, at: date)
    }

    func dropCredentials(accountID: String, keepingEmail keeping: String) async throws {
        try await base.dropCredentials(accountID: accountID, keepingEmail: keeping)
    }

    func mergeAccount(_ from: String, into: String, at date: Date) async throws {
        try await base.mergeAccount(from, into: into, at: date)
    }

    func hasRidesProfile(accountID: String) async throws -> Bool {
        try await base.hasRidesProfile(accountID: accountID)
    }

    func eraseAccount(id: String, at date: Date) async throws {
        try await base.eraseAccount(id: id, at: date)
    }

    func revokeSessions(accountID: String, at date: Date) async throws {
        try await base.revokeSessions(accountID: accountID, at: date)
    }

    func enqueueEmail(dedupeKey: String, to recipient: String, subject: String, body: String, at date: Date)
        async throws
    {
        try await base.enqueueEmail(dedupeKey: dedupeKey, to: recipient, subject: subject, body: body, at: date)
    }
}
