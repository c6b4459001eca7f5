import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// A stays registration is one commit: the guest profile goes in with the platform account, in
/// its transaction, and a registration that fails later (a taken email) leaves neither.
@Suite struct StaysRegistrationStoreTests {
    @Test(arguments: TestEngine.all)
    func theGuestProfileCommitsAndRollsBackWithItsAccount(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let anna = StaysAccountService.NewGuest(
            username: "anna", firstName: "Anna", lastName: "Meier", email: "anna@example.ch", phone: "+41791234567")
        let accounts = SQLStaysRegistrationAccounts(database: database, guest: anna)
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        try await accounts.transaction(locking: []) { tx in
            try await tx.insertAccount(id: "acc_1", displayName: "Anna Meier", at: now)
        }
        let stays = SQLStaysStore(database: database)
        let guest = try #require(try await stays.guest(accountID: "acc_1"))
        #expect(guest.username == "anna" && guest.lastName == "Meier" && guest.phone == "+41791234567")

        struct TakenLater: Error {}
        await #expect(throws: TakenLater.self) {
            try await accounts.transaction(locking: []) { tx in
                try await tx.insertAccount(id: "acc_2", displayName: "Anna Meier", at: now)
                throw TakenLater()
            }
        }
        #expect(try await stays.guest(accountID: "acc_2") == nil)
        #expect(try await accounts.account(id: "acc_2") == nil)
        try await database.close()
    }
}
