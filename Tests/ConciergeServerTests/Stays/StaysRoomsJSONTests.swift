import ConciergeModels
import Foundation
import NIOCore
import Testing

@testable import ConciergeServer

/// The room search's answer is written by hand for speed; it must be byte for byte what
/// `JSONEncoder` writes for the same wrapper, whatever the rooms hold.
@Suite struct StaysRoomsJSONTests {
    static func room(id: Int64, description: String, price: Double, policy: String) -> Stays.RoomHotel {
        Stays.RoomHotel(
            id: id, description: description, roomType: "Double",
            pathImage: "http://127.0.0.1:8080/stays/images/double.svg",
            peopleQuantity: 2, price: price, nights: 30, totalPrice: price * 30 + 0.1, taxPrice: 3.5, available: 99_999,
            cancellationPolicy: policy, paymentPolicy: "pay_at_hotel", currency: "CHF",
            priceCents: Int((price * 100).rounded()), totalPriceCents: 1_234_567, taxPriceCents: 350)
    }

    static let cases: [Stays.APIResponse<[Stays.RoomHotel]>] = [
        .init(data: [], status: 200, message: "No room is free for these dates.", errorType: nil, timeStamp: 0),
        .init(
            data: [
                room(id: 1, description: "Family room", price: 189.5, policy: "Free cancellation until 24 h before."),
                room(id: 2, description: "Zürich \"Suite\" \\ / é 🛏", price: 240, policy: ""),
                room(id: 9_007_199_254, description: "a\nb\tc\r\u{01}\u{1f}\u{7f}\u{2028}", price: 0.1, policy: "<b>"),
            ],
            status: 200, message: "OK", errorType: nil, timeStamp: 1_795_000_000_123),
        .init(data: nil, status: 409, message: "Sold out", errorType: "sold_out", timeStamp: 1),
        .init(
            data: [room(id: 3, description: "", price: 1_234_567.89, policy: "x")], status: 200, message: "ÄÖÜ",
            errorType: nil, timeStamp: Int64(Int32.max) + 5),
    ]

    @Test(arguments: cases)
    func theRoomSearchAnswerIsExactlyWhatJSONEncoderWrites(answer: Stays.APIResponse<[Stays.RoomHotel]>) throws {
        let expected = try Wire.encoder.encode(answer)
        let written = Data(buffer: answer.json)
        #expect(
            written == expected,
            "\(String(decoding: written, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))")
        let decoded = try JSONDecoder().decode(Stays.APIResponse<[Stays.RoomHotel]>.self, from: written)
        #expect(decoded.data == answer.data)
        #expect(decoded.message == answer.message && decoded.timeStamp == answer.timeStamp)
    }
}
