import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// The accounts tables on both engines: the move of rides customers into accounts, credentials
/// unique per identifier, single-use tokens, merging and erasing.
@Suite struct AccountsStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(arguments: TestEngine.all)
    func existingCustomersBecomeAccountsAndStaySignedIn(engine: TestEngine) async throws {
        let database = try await engine.openEmpty()
        try await Migrator(database: database, groups: [.core]).migrate()
        let hasher = SecretHasher(secret: "test-secret")
        let token = "rides-token-from-before-the-platform"
        try await database.query(
            "INSERT INTO customers (id, phone, name, email, created_at) VALUES ('cus_1', '+41791234567', 'Anna', NULL, 1)"
        )
        try await database.query(
            "INSERT INTO sessions (token_hash, customer_id, created_at, expires_at, revoked_at) VALUES (?, 'cus_1', 1, ?, NULL)",
            [.text(hasher.hash(token, purpose: "session")), SQLValue(Self.now.addingTimeInterval(3600))])
        try await Migrator(database: database).migrate()

        let account = try #require(try await SQLAccountStore(database: database).account(id: "cus_1"))
        #expect(account.displayName == "Anna")
        #expect(account.verifiedPhones == ["+41791234567"])
        let clock = ManualTimeSource(Self.now)
        let signIn = SignInService(
            store: SQLIdentityStore(database: database), codes: .local(RecordingSMSSender()), hasher: hasher,
            policy: SignInPolicy(), clock: clock)
        #expect(try await signIn.authenticate(token: token).customer.id == "cus_1")
        let session = try #require(
            try await SQLSessionStore(database: database).session(tokenHash: hasher.hash(token, purpose: "session")))
        #expect(session.accountID == "cus_1")
        #expect(session.kind == .bearer)
        #expect(session.vertical == "rides")
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func anIdentifierSignsInToOneAccountOnly(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let store = SQLAccountStore(database: database)
        let taken = try await store.transaction(locking: []) { tx in
            try await tx.insertAccount(id: "acc_a", displayName: nil, at: Self.now)
            try await tx.insertAccount(id: "acc_b", displayName: nil, at: Self.now)
            let first = try await tx.insertCredential(Self.email("anna@example.ch", account: "acc_a"))
            let second = try await tx.insertCredential(Self.email("anna@example.ch", account: "acc_b"))
            return (first, second)
        }
        #expect(taken == (true, false))
        let owner = try await store.transaction(locking: []) { tx in
            try await tx.credential(kind: .email, identifier: "anna@example.ch")?.accountID
        }
        #expect(owner == "acc_a")
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func aTokenIsSpentOnceAndNotAfterItExpires(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let store = SQLAccountStore(database: database)
        let token = AccountToken(
            tokenHash: "h1", accountID: "acc_a", purpose: .verifyEmail, identifier: "anna@example.ch",
            createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(60))
        let late = AccountToken(
            tokenHash: "h2", accountID: "acc_a", purpose: .resetPassword, identifier: "anna@example.ch",
            createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(60))
        try await store.transaction(locking: []) { tx in
            try await tx.insertAccount(id: "acc_a", displayName: nil, at: Self.now)
            try await tx.insertToken(token)
            try await tx.insertToken(late)
        }
        let spends = try await store.transaction(locking: []) { tx in
            [
                try await tx.spendToken(hash: "h1", purpose: .resetPassword, at: Self.now) != nil,
                try await tx.spendToken(hash: "h1", purpose: .verifyEmail, at: Self.now) != nil,
                try await tx.spendToken(hash: "h1", purpose: .verifyEmail, at: Self.now) != nil,
                try await tx.spendToken(hash: "h2", purpose: .resetPassword, at: Self.now.addingTimeInterval(60))
                    != nil,
            ]
        }
        #expect(spends == [false, true, false, false])
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func mergingMovesCredentialsAndSessionsAndLeavesATombstone(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let store = SQLAccountStore(database: database)
        let sessions = SQLSessionStore(database: database)
        try await store.transaction(locking: []) { tx in
            try await tx.insertAccount(id: "acc_a", displayName: "A", at: Self.now)
            try await tx.insertAccount(id: "acc_b", displayName: "B", at: Self.now)
            _ = try await tx.insertCredential(Self.email("a@example.ch", account: "acc_a"))
            _ = try await tx.insertCredential(Self.email("b@example.ch", account: "acc_b"))
        }
        try await sessions.insert(Self.session("ses_b", account: "acc_b"))
        try await store.transaction(locking: []) { tx in try await tx.mergeAccount("acc_b", into: "acc_a", at: Self.now)
        }

        let merged = try #require(try await store.account(id: "acc_a"))
        #expect(Set(merged.methods.map(\.identifier)) == ["a@example.ch", "b@example.ch"])
        #expect(try await store.account(id: "acc_b") == nil)
        #expect(try await sessions.session(id: "ses_b")?.accountID == "acc_a")
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func erasingLeavesNothingPersonalButKeepsTheRidesProfileRow(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let store = SQLAccountStore(database: database)
        let sessions = SQLSessionStore(database: database)
        try await SQLIdentityStore(database: database).transaction(locking: []) { tx in
            try await tx.insertCustomer(
                Customer(
                    id: "acc_a", phone: PhoneNumber(trustedE164: "+41791234567"), name: "Anna",
                    email: "anna@example.ch", createdAt: Self.now))
        }
        try await store.transaction(locking: []) { tx in
            _ = try await tx.insertCredential(Self.email("anna@example.ch", account: "acc_a"))
        }
        try await sessions.insert(Self.session("ses_a", account: "acc_a"))
        try await sessions.insertRefreshToken(
            hash: "r1", sessionID: "ses_a", issuedAt: Self.now, expiresAt: Self.now.addingTimeInterval(60))
        try await database.query(
            """
            INSERT INTO orders (id, vertical, account_id, reference, public_secret, amount_cents, currency, state, created_at, updated_at)
            VALUES ('ord_1', 'events', 'acc_a', 'EVT-1', 'secret', 4500, 'CHF', 'paid', 1, 1)
            """)

        try await store.transaction(locking: []) { tx in try await tx.eraseAccount(id: "acc_a", at: Self.now) }

        #expect(try await store.account(id: "acc_a") == nil)
        #expect(try await sessions.session(id: "ses_a") == nil)
        #expect(try await database.query("SELECT * FROM account_credentials").isEmpty)
        #expect(try await database.query("SELECT * FROM refresh_tokens").isEmpty)
        let profile = try #require(try await database.query("SELECT * FROM customers WHERE id = 'acc_a'").first)
        #expect(try profile.optionalString("name") == nil)
        #expect(try profile.optionalString("email") == nil)
        #expect(try profile.string("phone") == "erased:acc_a")
        let order = try #require(try await database.query("SELECT * FROM orders WHERE id = 'ord_1'").first)
        #expect(try order.optionalString("account_id") == nil)
        #expect(try order.int("amount_cents") == 4500)
        try await database.close()
    }

    static func email(_ address: String, account: String) -> StoredCredential {
        StoredCredential(
            kind: .email, identifier: address, accountID: account, secretHash: "bcrypt", verifiedAt: nil, createdAt: now
        )
    }

    static func session(_ id: String, account: String) -> AuthSession {
        AuthSession(
            id: id, accountID: account, kind: .refreshable, vertical: "account", tokenHash: nil, createdAt: now,
            expiresAt: now.addingTimeInterval(3600), revokedAt: nil)
    }
}
