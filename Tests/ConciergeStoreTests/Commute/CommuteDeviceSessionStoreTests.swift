import ConciergeCore
import ConciergeModels
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// A device's notices stop when the session that registered it ends (signed out on that
/// phone); a device registered with an ID token, which has no session, keeps them.
@Suite struct CommuteDeviceSessionStoreTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func device(_ token: String) -> CommuteDevice {
        CommuteDevice(platform: "ios", token: token, environment: "sandbox", createdAt: WireDate.string(from: start))
    }

    @Test(arguments: TestEngine.all)
    func aDeviceGetsNoNoticesOnceTheSessionThatRegisteredItEnds(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        try await database.query("INSERT INTO accounts (id, created_at) VALUES ('acc_1', 1)")
        let sessions = SQLSessionStore(database: database)
        for id in ["ses_phone", "ses_tablet"] {
            try await sessions.insert(
                AuthSession(
                    id: id, accountID: "acc_1", kind: .bearer, vertical: "rides", tokenHash: "hash_" + id,
                    createdAt: Self.start, expiresAt: Self.start.addingTimeInterval(3600), revokedAt: nil))
        }
        let store = SQLCommuteStore(database: database)
        #expect(try await store.upsertDevice(accountID: "acc_1", sessionID: "ses_phone", device: Self.device("aa11")))
        #expect(try await store.upsertDevice(accountID: "acc_1", sessionID: "ses_tablet", device: Self.device("bb22")))
        #expect(try await store.upsertDevice(accountID: "acc_1", sessionID: nil, device: Self.device("cc33")))
        #expect(try await store.contacts(accountID: "acc_1", at: Self.start).deviceTokens == ["aa11", "bb22", "cc33"])

        #expect(try await sessions.revoke(id: "ses_phone", at: Self.start.addingTimeInterval(60)))
        #expect(
            try await store.contacts(accountID: "acc_1", at: Self.start.addingTimeInterval(61)).deviceTokens
                == ["bb22", "cc33"])
        // An expired session ends the same way; the ID token's device goes on.
        #expect(
            try await store.contacts(accountID: "acc_1", at: Self.start.addingTimeInterval(3601)).deviceTokens
                == ["cc33"])
    }
}
