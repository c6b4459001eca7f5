import ConciergeTestSupport
import Foundation
import Testing

@testable import ConciergeServer

/// `/ops/stays`: the day's arrivals and departures and the occupancy bars for an operator; a
/// visitor who is not signed in to operations is sent to the operator sign-in.
@Suite struct StaysOperationsPagesTests {
    static let adminToken = "stays-pages-admin-token-0123456789abcdef"

    @Test func anOperatorSeesTheDaysArrivalsDeparturesAndOccupancy() async throws {
        let app = try await TestApp.make(
            engine: .sqlite,
            environment: StaysFixtures.environment.merging(["CONCIERGE_ADMIN_TOKEN": Self.adminToken]) { $1 })
        try await app.run { client in
            let anna = try await client.staysSignUp("anna")
            let made = try await client.stays(.post, "/appointment", json: StaysFixtures.reserve(), token: anna.token)
            #expect(made.status == .created)

            var visitor = WebBrowser(client: client)
            let refused = try await visitor.get("/ops/stays?date=\(StaysFixtures.monday)", follow: false)
            #expect(refused.status == 303)
            #expect(refused.location == "/ops/sign-in?next=%2Fops%2Fstays%3Fdate%3D\(StaysFixtures.monday)")

            var frontDesk = WebBrowser(client: client)
            _ = try await frontDesk.get("/ops/sign-in")
            let page = try await frontDesk.post(
                "/ops/sign-in",
                form: [("token", Self.adminToken), ("next", "/ops/stays?date=\(StaysFixtures.monday)")])
            #expect(page.status == 200 && page.contains("Arrivals (1)") && page.contains("Anna Meier"))
            #expect(page.contains("Departures (0)") && page.contains("Nobody leaves on this day."))
            // One of twelve Doubles and none of the other 18 rooms: 1 of 30 taken.
            #expect(page.contains("1 booked, 0 held of 30 (3 %)") && page.contains(">1 of 12<"))
            #expect(page.contains(#"<rect class="stays-bar-booked" x="0" y="0" width="3" height="10"/>"#))
            #expect(!page.contains("style="))

            let leaving = try await frontDesk.get("/ops/stays?date=\(StaysFixtures.wednesday)")
            #expect(leaving.contains("Departures (1)") && leaving.contains("Arrivals (0)"))
            let wrong = try await frontDesk.get("/ops/stays?date=someday")
            #expect(wrong.status == 400 && wrong.contains(#"id="date-error" role="alert""#))
            let today = try await frontDesk.get("/ops/stays")
            #expect(today.status == 200 && today.contains(#"value="2027-01-15""#))
        }
    }
}
