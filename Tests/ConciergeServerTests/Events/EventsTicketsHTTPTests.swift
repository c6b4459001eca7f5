import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// A seat's ticket as a QR image (`…/tickets/{seatId}.svg` and `.png`): the owner's only, and
/// what it holds (read back by zbarimg) admits that one seat at the door.
@Suite struct EventsTicketsHTTPTests {
    @Test(arguments: TestEngine.all)
    func theOwnerGetsEachSeatsTicketAndItAdmitsThatSeat(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine, ["CONCIERGE_ADMIN_TOKEN": EventsCheckInHTTPTests.scanner])
        try await app.runWithWorker { client, worker in
            let anna = try await client.eventsBuyer("anna@example.ch", worker: worker)
            let checkout = try await client.seatCheckout(anna, seats: ["circle-M3", "circle-M4"])
                .decode(Events.SeatCheckoutResponse.self)
            let base = "/events/api/user/bookings/\(checkout.orderId)/tickets"

            // Not paid yet: no valid ticket.
            let pending = try await client.send(.get, "\(base)/circle-M3.png", token: anna)
            #expect(pending.status == .conflict)
            #expect(String(buffer: pending.body).contains("tickets_not_valid"))

            _ = try await client.checkout(checkout.url, outcome: "paid")
            _ = try await client.send(.get, "/events/api/checkout/success?session_id=\(checkout.sessionId)")

            let svg = try await client.send(.get, "\(base)/circle-M3.svg", token: anna)
            #expect(svg.status == .ok)
            #expect(svg.headers[.contentType] == "image/svg+xml; charset=utf-8")
            #expect(svg.headers[.cacheControl] == "private, no-store")
            let drawing = String(buffer: svg.body)
            #expect(drawing.contains("<svg") && drawing.contains("<title>Ticket: Circle row M seat 3</title>"))

            let png = try await client.send(.get, "\(base)/circle-M3.png", token: anna)
            #expect(png.status == .ok)
            #expect(png.headers[.contentType] == "image/png")
            let bytes = Array(png.body.readableBytesView)
            #expect(bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

            // Another buyer, no token, a seat not in the booking, an unknown booking.
            let ben = try await client.eventsBuyer("ben@example.ch", worker: worker)
            #expect(try await client.send(.get, "\(base)/circle-M3.png", token: ben).status == .notFound)
            #expect(try await client.send(.get, "\(base)/circle-M3.svg", token: ben).status == .notFound)
            #expect(try await client.send(.get, "\(base)/circle-M3.png").status == .unauthorized)
            #expect(try await client.send(.get, "\(base)/circle-M5.png", token: anna).status == .notFound)
            #expect(
                try await client.send(.get, "/events/api/user/bookings/ord_nope/tickets/circle-M3.svg", token: anna)
                    .status == .notFound)

            // The image holds the seat's signed ticket: it admits circle-M3 alone, once.
            guard let payload = try QRImageReader.decode(bytes) else { return }
            #expect(payload.hasPrefix("CEVS1.\(checkout.orderId).shw_demo_1.circle-M3."))
            let first = try await EventsCheckInHTTPTests.scan(client, qrCode: payload)
                .decode(EventsCheckInHTTPTests.Scan.self)
            #expect(first.result == "ok" && first.seat == "Circle M3")
            let again = try await EventsCheckInHTTPTests.scan(client, qrCode: payload)
                .decode(EventsCheckInHTTPTests.Scan.self)
            #expect(again.result == "already_used")
            // A seat's payload signed for another seat of the booking does not pass for it.
            let forged = payload.replacingOccurrences(of: ".circle-M3.", with: ".circle-M4.")
            #expect(
                try await EventsCheckInHTTPTests.scan(client, qrCode: forged).decode(EventsCheckInHTTPTests.Scan.self)
                    .result == "invalid")

            // Once cancelled, the tickets are gone.
            #expect(
                try await client.send(.post, "/events/api/user/bookings/\(checkout.orderId)/cancel", token: anna).status
                    == .ok)
            #expect(try await client.send(.get, "\(base)/circle-M4.svg", token: anna).status == .conflict)
        }
    }
}

/// zbarimg, the independent decoder; nil (and no check) only with `CONCIERGE_SKIP_ZBAR=1`.
enum QRImageReader {
    static func decode(_ png: [UInt8]) throws -> String? {
        let environment = ProcessInfo.processInfo.environment
        let folders =
            (environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        guard let zbarimg = folders.map({ "\($0)/zbarimg" }).first(where: FileManager.default.isExecutableFile)
        else {
            if environment["CONCIERGE_SKIP_ZBAR"] == "1" { return nil }
            throw TestFailure(
                "zbarimg is missing: run ./scripts/ensure-zbar or apt-get install zbar-tools, or set CONCIERGE_SKIP_ZBAR=1."
            )
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ticket-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(png).write(to: file)
        return try ChildProcess.run(zbarimg, ["--raw", "-q", file.path]).output.trimmingCharacters(in: .newlines)
    }
}
