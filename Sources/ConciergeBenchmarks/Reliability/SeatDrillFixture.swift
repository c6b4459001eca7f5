import Foundation

/// The crash drill's seat side, set up through the admin and events APIs like the seats
/// benchmark's (`EventsLoadFixture`): the 2,000-seat hall, the shows buyers pay for, the shows
/// where holds are left to lapse (apart, so that once every hold has lapsed the whole show must
/// be free again), and verified events buyers.
struct SeatDrillFixture: Sendable {
    /// One events session per buyer, each with a confirmed email.
    let buyerTokens: [String]
    /// The shows paying buyers race for; the next goes on sale when one sells out.
    let sales: ShowRotation
    /// The shows buyers hold seats on without paying.
    let holds: ShowRotation
    /// The paid orders' seats as the buyers saw them: a seat two buyers paid for shows there even
    /// if the server's listings hid it.
    let ledger = SeatLedger()

    /// Every third buyer leaves its holds unpaid (in the rounds that have unpaid holds).
    static func leavesHoldsUnpaid(_ buyer: Int) -> Bool { buyer % 3 == 2 }

    static func prepare(port: Int, buyers: Int) async throws -> SeatDrillFixture {
        let venueID = try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
            try await EventsLoadFixture.importVenue(on: connection)
        }
        // Addresses new every run, so a reused PostgreSQL database never finds them taken.
        let run = Int.random(in: 0..<9_000_000)
        let tokens = try await EventsLoadFixture.signUpBuyers(buyers, port: port, emailPrefix: "crash\(run)-")
        return SeatDrillFixture(
            buyerTokens: tokens, sales: try await ShowRotation.start(port: port, venueID: venueID),
            holds: try await ShowRotation.start(port: port, venueID: venueID))
    }

    /// After a restart: new shows are created on the server's new port.
    func serve(on port: Int) async {
        await sales.serve(on: port)
        await holds.serve(on: port)
    }
}
