import ConciergeModels
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// The door: a signed ticket is admitted once, a forged or foreign one never; two gates on two
/// instances scanning the same ticket at once admit it once.
@Suite struct EventsCheckInHTTPTests {
    static let scanner = "scanner-token-0123456789abcdef0123456789"

    struct Scan: Decodable {
        let result: String
        let seat: String?
        let firstScannedAt: String?
    }

    /// A paid booking's scan payload.
    static func paidTicket(_ client: some TestClientProtocol, worker: MaintenanceService, seats: [String]) async throws
        -> (qrCode: String, orderID: String)
    {
        let anna = try await client.eventsBuyer("anna-\(seats[0].lowercased())@example.ch", worker: worker)
        let checkout = try await client.seatCheckout(anna, seats: seats).decode(Events.SeatCheckoutResponse.self)
        _ = try await client.checkout(checkout.url, outcome: "paid")
        let booking = try await client.send(
            .get, "/events/api/checkout/success?session_id=\(checkout.sessionId)", token: anna
        ).decode(Events.CheckoutSuccessResponse.self).booking
        return (try #require(booking?.qrCode), checkout.orderId)
    }

    static func scan(
        _ client: some TestClientProtocol, qrCode: String? = nil, secret: String? = nil, show: String = "shw_demo_1",
        token: String? = scanner
    ) async throws -> TestResponse {
        let field = qrCode.map { #""qrCode": "\#($0)""# } ?? #""secret": "\#(secret ?? "")""#
        return try await client.send(
            .post, "/events/api/checkin", json: #"{\#(field), "showId": "\#(show)", "gate": "north"}"#, token: token)
    }

    @Test(arguments: TestEngine.all)
    func aTicketIsAdmittedOnceAndForgeriesNever(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine, ["CONCIERGE_ADMIN_TOKEN": Self.scanner])
        let database = try await app.configuration.storage.open(logger: TestApp.quiet)
        try await app.runWithWorker { client, worker in
            let ticket = try await Self.paidTicket(client, worker: worker, seats: ["stalls-G1", "stalls-G2"])
            #expect(try await Self.scan(client, qrCode: ticket.qrCode, token: nil).status == .unauthorized)
            let first = try await Self.scan(client, qrCode: ticket.qrCode).decode(Scan.self)
            #expect(first.result == "ok" && first.seat == "Stalls G1, Stalls G2")
            let second = try await Self.scan(client, qrCode: ticket.qrCode).decode(Scan.self)
            #expect(second.result == "already_used" && second.firstScannedAt != nil)
            #expect(
                try await Self.scan(client, qrCode: ticket.qrCode, show: "shw_demo_2").decode(Scan.self).result
                    == "wrong_show")
            var forged = ticket.qrCode
            forged.replaceSubrange(forged.range(of: ".2.")!, with: ".9.")
            #expect(try await Self.scan(client, qrCode: forged).decode(Scan.self).result == "invalid")
            #expect(try await Self.scan(client, secret: "guess").decode(Scan.self).result == "invalid")

            // A ticket's own secret admits its one seat.
            let other = try await Self.paidTicket(client, worker: worker, seats: ["stalls-H3"])
            let secret = try #require(
                try await database.query("SELECT secret FROM events_tickets WHERE order_id = ?", [.text(other.orderID)])
                    .first?.string("secret"))
            #expect(try await Self.scan(client, secret: secret).decode(Scan.self).result == "ok")
            #expect(try await Self.scan(client, qrCode: other.qrCode).decode(Scan.self).result == "already_used")
            let key = try await client.send(.get, "/events/api/checkin/key")
            #expect(String(buffer: key.body).contains("Ed25519"))
        }
        try await database.close()
    }

    @Test(.enabled(if: TestEngine.all.contains(.postgres)))
    func twoGatesOnTwoInstancesScanningOneTicketAtOnceAdmitItOnce() async throws {
        let app = try await EventsTestApp.make(.postgres, ["CONCIERGE_ADMIN_TOKEN": Self.scanner])
        try await app.runWithWorker { first, worker in
            let ticket = try await Self.paidTicket(first, worker: worker, seats: ["stalls-J5"])
            try await app.sibling().run { second in
                let results = try await withThrowingTaskGroup(of: String.self) { group in
                    for n in 0..<8 {
                        let client = n.isMultiple(of: 2) ? first : second
                        group.addTask { try await Self.scan(client, qrCode: ticket.qrCode).decode(Scan.self).result }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(results.filter { $0 == "ok" }.count == 1)
                #expect(results.filter { $0 == "already_used" }.count == 7)
            }
        }
    }
}
