import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// Issue 26 item 7: the export holds every vertical's part of the person, no one else's, and
/// no secret.
@Suite struct PersonalDataExportStoreTests {
    @Test(arguments: TestEngine.all)
    func theExportHoldsEveryVerticalsPartAndNoSecrets(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let zelda = PersonalDataFixture(name: "zelda", phone: "+41790000777")
        try await PersonalDataFixture.seedCatalogue(in: database)
        try await zelda.seed(in: database)
        try await PersonalDataFixture(name: "bob", phone: "+41790000888").seed(in: database)

        let export = try await PersonalDataExporter(database: database).export(
            accountID: zelda.accountID, at: PersonalDataFixture.now)
        #expect(Set(export.modules.keys) == ["platform", "rides", "stays", "events", "commute"])
        #expect(export.modules["commute"]?["commute_trips"]?.count == 1)
        #expect(export.modules["commute"]?["commute_observations"]?.count == 1)
        #expect(
            export.modules["stays"]?["stays_reservations"]?.first?["purpose"] == .text("medical treatment for zelda"))
        #expect(export.modules["events"]?["events_bookings"]?.first?["contact_email"] == .text(zelda.email))
        #expect(export.modules["rides"]?["bookings"]?.first?["flight_number"] == .text("LX zelda"))
        #expect(export.modules["platform"]?["account_credentials"]?.count == 3)
        #expect(export.modules["platform"]?["notification_outbox"]?.count == 2)
        #expect(export.modules["platform"]?["outbox_messages"]?.count == 2)

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(export), as: UTF8.self)
        #expect(!json.contains("bob"))
        for secret in ["secret_hash", "token_hash", "public_secret", "session_id", "\"secret\"", "code_hash"] {
            #expect(!json.contains(secret), "the export shows \(secret)")
        }
        #expect(json.contains(#""created_at":"2027-01-15T08:00:00Z""#))
        try await database.close()
    }
}
