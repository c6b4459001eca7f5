import ConciergeModels
import Foundation
import NIOCore
import Testing

@testable import ConciergeServer

/// The seat list is written by hand for speed; it must be byte for byte what `JSONEncoder`
/// writes for the same seats, signed in or not.
@Suite struct EventsSeatsJSONTests {
    static func seat(_ id: String, status: Events.Seat.Status, heldByYou: Bool?, section: String = "Stalls")
        -> Events.Seat
    {
        Events.Seat(
            id: id, row: "AA", number: "12", section: section, price: 60, status: status, seatMapId: "ven_1",
            priceCents: 6_000, currency: "CHF", heldByYou: heldByYou)
    }

    static let cases: [[Events.Seat]] = [
        [],
        [seat("stalls-AA12", status: .available, heldByYou: nil)],
        [
            seat("front-A1", status: .reserved, heldByYou: true),
            seat("front-A2", status: .sold, heldByYou: false, section: "Galerie \"Nord\" \\ / é\n\u{01}"),
        ],
    ]

    @Test(arguments: cases)
    func theSeatListIsExactlyWhatJSONEncoderWrites(seats: [Events.Seat]) throws {
        let expected = try Wire.encoder.encode(seats)
        let written = Data(buffer: seats.json)
        #expect(
            written == expected,
            "\(String(decoding: written, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))")
        #expect(try JSONDecoder().decode([Events.Seat].self, from: written) == seats)
    }
}
