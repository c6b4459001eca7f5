import ConciergeModels
import ConciergeStore
import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Issue 26 items 7 and 8: `GET /account/export` through the public surface, the retention
/// settings, and every vertical registered as an owner of personal data.
@Suite struct AccountExportHTTPTests {
    @Test(arguments: TestEngine.all)
    func theExportHoldsTheSignedInPersonsDataAndNeedsASession(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        try await app.run { client in
            #expect(try await client.send(.get, "/account/export").status == .unauthorized)
            let rides = try await client.signIn(phone: "+41791234567")
            let booked = try await client.book(
                token: rides.sessionToken, pickupAt: app.clock.now.addingTimeInterval(3 * 86_400), flight: "LX 318")
            #expect(booked.status == .ok)

            let export = try await client.send(.get, "/account/export", token: rides.sessionToken)
            #expect(export.status == .ok)
            #expect(export.headers[.cacheControl] == "no-store")
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(buffer: export.body)) as? [String: Any])
            #expect(document["format"] as? String == PersonalDataExport.format)
            #expect(document["accountId"] as? String == rides.customer.id)
            let modules = try #require(document["modules"] as? [String: [String: [[String: Any]]]])
            #expect(Set(modules.keys) == ["platform", "rides", "stays", "events", "commute"])
            #expect(modules["rides"]?["customers"]?.first?["phone"] as? String == "+41791234567")
            #expect(modules["rides"]?["bookings"]?.first?["flight_number"] as? String == "LX318")
            #expect(modules["platform"]?["orders"]?.count == 1)
            #expect(!String(buffer: export.body).contains("public_secret"))

            #expect(try await client.send(.delete, "/account", token: rides.sessionToken).status == .ok)
            #expect(try await client.send(.get, "/account/export", token: rides.sessionToken).status == .unauthorized)
        }
    }

    @Test func retentionPeriodsHaveDocumentedDefaultsAndRefuseNonsense() throws {
        let defaults = try RetentionPeriods(environment: [:])
        #expect(defaults.sentNotifications == 30 * 86_400)
        #expect(defaults.devOutbox == 7 * 86_400)
        #expect(defaults.orderEvents == 365 * 86_400)
        #expect(throws: ConfigurationError.self) {
            _ = try RetentionPeriods(environment: ["CONCIERGE_RETENTION_DEV_OUTBOX_DAYS": "0"])
        }
        #expect(
            try RetentionPeriods(environment: ["CONCIERGE_RETENTION_ORDER_EVENTS_DAYS": "90"]).orderEvents
                == 90 * 86_400)
    }

    /// A new vertical must say what it stores about a person before erasure can reach it.
    @Test func everyVerticalOwnsItsPersonalData() {
        #expect(AccountDataOwners.verticals.map(\.module).sorted() == VerticalModules.all.map(\.name).sorted())
    }
}
