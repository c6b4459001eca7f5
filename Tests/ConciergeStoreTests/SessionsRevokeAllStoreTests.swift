import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// "Sign out everywhere": every live session of one account ends, on both engines; another
/// account's sessions and an earlier revocation stay as they were.
@Suite struct SessionsRevokeAllStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(arguments: TestEngine.all)
    func everySessionOfTheAccountEndsAndNoOneElses(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        try await SQLAccountStore(database: database).transaction(locking: []) { tx in
            try await tx.insertAccount(id: "acc_a", displayName: nil, at: Self.now)
            try await tx.insertAccount(id: "acc_b", displayName: nil, at: Self.now)
        }
        let store = SQLSessionStore(database: database)
        for (id, account) in [("ses_a1", "acc_a"), ("ses_a2", "acc_a"), ("ses_a3", "acc_a"), ("ses_b1", "acc_b")] {
            try await store.insert(AccountsStoreTests.session(id, account: account))
        }
        let earlier = Self.now.addingTimeInterval(10)
        #expect(try await store.revoke(id: "ses_a3", at: earlier))

        let later = Self.now.addingTimeInterval(60)
        #expect(try await store.revokeAll(accountID: "acc_a", at: later) == 2)
        #expect(try await store.session(id: "ses_a1")?.revokedAt == later)
        #expect(try await store.session(id: "ses_a2")?.revokedAt == later)
        #expect(try await store.session(id: "ses_a3")?.revokedAt == earlier)
        #expect(try await store.session(id: "ses_b1")?.revokedAt == nil)
        #expect(try await store.revokeAll(accountID: "acc_a", at: later) == 0)
        try await database.close()
    }
}
