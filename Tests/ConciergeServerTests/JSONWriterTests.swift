import ConciergeModels
import Foundation
import NIOCore
import Testing

@testable import ConciergeServer

/// The pricing answer is written by hand for speed; it must be byte for byte what `JSONEncoder`
/// writes for the same value, whatever the value.
@Suite struct JSONWriterTests {
    static func response(distance: Double, label: String, vehicle: String, adjustments: Int) -> PricingResponse {
        let price = VehiclePrice(priceCents: 9_960, priceFormatted: "CHF 99.60", vehicle: vehicle, maxPassengers: 3)
        let all = [
            PricingAdjustment(code: "night", label: label, percent: 20),
            PricingAdjustment(code: "airport_pickup", label: "Airport pickup", amountCents: 1_000),
            PricingAdjustment(code: "both", label: "x", percent: -5, amountCents: 0),
        ]
        return PricingResponse(
            distanceKm: distance, durationMinutes: 42, pickupDatetime: "2026-11-24T21:15:00.000Z",
            prices: VehiclePrices(
                business: price,
                first: VehiclePrice(priceCents: 0, priceFormatted: "CHF 0.00", vehicle: "", maxPassengers: 0),
                xl: VehiclePrice(
                    priceCents: 1_234_567_890, priceFormatted: "CHF 12'345'678.90", vehicle: vehicle, maxPassengers: 7)),
            adjustments: Array(all.prefix(adjustments)))
    }

    static let cases: [PricingResponse] = [
        response(distance: 12.3, label: "Night +20 %", vehicle: "Mercedes E-Class or similar", adjustments: 0),
        response(distance: 0, label: "Nacht", vehicle: "V-Klasse", adjustments: 1),
        response(
            distance: 280, label: "Zürich \"Hauptbahnhof\" \\ / é 🚕", vehicle: "a\nb\tc\r\u{01}\u{1f}", adjustments: 2),
        response(distance: 0.1, label: "", vehicle: "\u{7f}\u{2028}", adjustments: 3),
        response(distance: 1_234.5, label: "<script>", vehicle: "x", adjustments: 3),
    ]

    @Test(arguments: cases)
    func thePricingAnswerIsExactlyWhatJSONEncoderWrites(response: PricingResponse) throws {
        let expected = try Wire.encoder.encode(response)
        let written = Data(buffer: response.json)
        #expect(
            written == expected,
            "\(String(decoding: written, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))")
        #expect(try JSONDecoder().decode(PricingResponse.self, from: written) == response)
    }
}
