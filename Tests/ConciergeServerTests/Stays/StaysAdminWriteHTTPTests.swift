import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import ConciergeServer

/// The hotel stored in the database and changed through the admin API (admin token): settings,
/// room types with counts and pictures, rates and closures — checked per field, kept across
/// restarts, and a room count never below what is booked on a night ahead. On both engines.
@Suite struct StaysAdminWriteHTTPTests {
    static let admin = StaysAdminHTTPTests.admin
    static let search = "/rooms?dStartTime=\(StaysFixtures.monday)&dEndTime=\(StaysFixtures.wednesday)&guests=2"

    /// One guest books a room type full here, so the per-guest rooms-a-night cap is off
    /// (docs/limits.md; `OrderLimitsHTTPTests` tests it).
    static func app(_ engine: TestEngine) async throws -> TestApp {
        try await TestApp.make(
            engine: engine,
            environment: StaysFixtures.environment.merging([
                "CONCIERGE_ADMIN_TOKEN": admin, "CONCIERGE_STAYS_MAX_ROOMS_PER_NIGHT": "0",
            ]) { $1 })
    }

    @Test(arguments: TestEngine.all)
    func settingsRoomTypesPicturesRatesAndClosuresChangeAndAreKept(engine: TestEngine) async throws {
        let app = try await Self.app(engine)
        try await app.run { client in
            let anna = try await client.staysSignUp()
            let token = Self.admin

            // Settings: the city tax changes the next search's prices.
            let saved = try await client.stays(
                .patch, "/admin/hotel", json: #"{"name": "Hotel Lac", "cityTaxCentsPerPersonNight": 300}"#,
                token: token, as: HotelSettings.self)
            #expect(saved.status == .ok && saved.data?.name == "Hotel Lac" && saved.data?.roomTypes.count == 4)
            let double = try await client.staysRoom("Double", token: anna.token)
            #expect(double?.taxPrice == 12 && double?.totalPrice == 372)
            let wrong = try await client.stays(
                .patch, "/admin/hotel", json: #"{"timeZone": "Mars/Base", "checkInHour": 25, "currency": "chf"}"#,
                token: token, as: Stays.ValidationFields.self)
            #expect(wrong.status == .badRequest && wrong.envelope.errorType == "validation")
            #expect(Set(wrong.data?.fields.keys.map { $0 } ?? []) == ["timeZone", "checkInHour", "currency"])
            #expect(
                try await client.stays(.patch, "/admin/hotel", json: #"{"name": 5}"#, token: token).status
                    == .badRequest)
            #expect(
                try await client.stays(.patch, "/admin/hotel", json: #"{"name": "X"}"#, token: anna.token).status
                    == .unauthorized)

            // A new room type, with an uploaded picture.
            let loft = try await client.stays(
                .post, "/admin/room-types",
                json:
                    #"{"type": "Loft", "capacity": 2, "rooms": 3, "baseRateCents": 30000, "paymentPolicy": "prepay"}"#,
                token: token, as: HotelSettings.RoomType.self)
            #expect(loft.status == .created && loft.data?.id == 5 && loft.data?.paymentPolicy == .prepay)
            #expect(try await client.staysRoom("Loft", token: anna.token)?.available == 3)
            let missing = try await client.stays(
                .post, "/admin/room-types", json: #"{"type": "Attic"}"#, token: token, as: Stays.ValidationFields.self)
            #expect(missing.status == .badRequest && missing.data?.fields["rooms"] != nil)
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: 64)
            let uploaded = try await client.execute(
                uri: "/stays/admin/room-types/5/image", method: .put,
                headers: [.authorization: "Bearer \(token)", .contentType: "image/png"],
                body: ByteBuffer(bytes: png))
            #expect(uploaded.status == .ok)
            let loftNow = try #require(try await client.staysRoom("Loft", token: anna.token))
            #expect(loftNow.pathImage.hasSuffix(".png"))
            let picture = try await client.send(
                .get, "/stays/images/" + (loftNow.pathImage.split(separator: "/").last.map(String.init) ?? ""))
            #expect(picture.status == .ok && picture.headers[.contentType] == "image/png")
            #expect(Data(buffer: picture.body) == png)
            let notAPicture = try await client.execute(
                uri: "/stays/admin/room-types/5/image", method: .put,
                headers: [.authorization: "Bearer \(token)", .contentType: "image/svg+xml"],
                body: ByteBuffer(string: "<svg onload=\"alert(1)\"/>"))
            #expect(notAPicture.status == .badRequest)

            // Rates: a base rate, and a season on top of it.
            let rates = try await client.stays(
                .put, "/admin/rates",
                json: """
                    {"roomTypes": [{"id": 2, "baseRateCents": 20000}],
                     "seasons": [{"name": "February", "from": "2027-02-01", "to": "2027-02-28", "percent": 10}]}
                    """, token: token, as: StaysHotelAdmin.RatesChange.self)
            #expect(rates.status == .ok && rates.data?.seasons?.count == 1)
            #expect(try await client.staysRoom("Double", token: anna.token)?.price == 220)
            let badSeason = try await client.stays(
                .put, "/admin/rates",
                json: #"{"seasons": [{"name": "Oops", "from": "2027-02-28", "to": "2027-02-01", "percent": 10}]}"#,
                token: token)
            #expect(badSeason.status == .badRequest && badSeason.envelope.errorType == "validation")

            // Closures: the Double is closed on Tuesday, then open again.
            let closure = try await client.stays(
                .post, "/admin/closures",
                json: #"{"from": "2027-02-02", "to": "2027-02-02", "roomTypeIds": [2], "reason": "painting"}"#,
                token: token, as: HotelSettings.Closure.self)
            #expect(closure.status == .created)
            let closureID = try #require(closure.data?.id)
            #expect(try await client.staysRoom("Double", token: anna.token) == nil)
            let reserved = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: anna.token,
                as: Stays.ValidationFields.self)
            #expect(reserved.status == .badRequest && reserved.data?.fields["checkIn"]?.contains("painting") == true)
            #expect(
                try await client.stays(.delete, "/admin/closures/\(closureID)", token: token).status == .ok)
            #expect(try await client.staysRoom("Double", token: anna.token) != nil)
            #expect(try await client.stays(.delete, "/admin/closures/\(closureID)", token: token).status == .notFound)
            #expect(
                try await client.stays(
                    .post, "/admin/closures", json: #"{"from": "2027-02-02", "to": "2027-02-05", "roomTypeIds": [77]}"#,
                    token: token
                ).status == .badRequest)
        }
        // Another start of the server (or another instance) serves the stored hotel.
        try await app.sibling().run { client in
            let hotel = try await client.stays(.get, "/admin/hotel", token: Self.admin, as: HotelSettings.self)
                .require()
            #expect(hotel.name == "Hotel Lac" && hotel.roomType(id: 5)?.type == "Loft")
            #expect(hotel.roomType(id: 2)?.baseRateCents == 20_000 && hotel.closures.isEmpty)
        }
    }

    @Test(arguments: TestEngine.all)
    func aRoomCountNeverDropsBelowWhatIsBookedOnAnyNight(engine: TestEngine) async throws {
        let app = try await Self.app(engine)
        let sibling = try app.sibling()
        try await app.run { first in
            try await sibling.run { second in
                let anna = try await first.staysSignUp()
                for _ in 0..<2 {
                    #expect(
                        try await first.stays(.post, "/appointment", json: StaysFixtures.reserve(), token: anna.token)
                            .status == .created)
                }
                let refused = try await first.stays(
                    .patch, "/admin/room-types/2", json: #"{"rooms": 1}"#, token: Self.admin)
                #expect(refused.status == .conflict && refused.envelope.errorType == "rooms_below_booked")
                #expect(refused.envelope.message.contains("2 are booked on 2027-02-01, 2027-02-02"))
                #expect(try await first.staysRoom("Double", token: anna.token)?.available == 10)

                let lowered = try await first.stays(
                    .patch, "/admin/room-types/2", json: #"{"rooms": 2, "description": "Two doubles left."}"#,
                    token: Self.admin, as: HotelSettings.RoomType.self)
                #expect(lowered.status == .ok && lowered.data?.rooms == 2)
                // Full on these nights for every instance at once — the count is the inventory's,
                // not a copy's.
                #expect(try await first.staysRoom("Double", token: anna.token) == nil)
                #expect(try await second.staysRoom("Double", token: anna.token) == nil)
                let full = try await second.stays(
                    .post, "/appointment", json: StaysFixtures.reserve(), token: anna.token)
                #expect(full.status == .conflict && full.envelope.errorType == "sold_out")
                let occupancy = try await first.stays(
                    .get, "/admin/occupancy?from=2027-02-01&to=2027-03-01", token: Self.admin,
                    as: [Stays.OccupancyRow].self
                ).require().filter { $0.roomTypeId == 2 }
                #expect(occupancy.first?.rooms == 2 && occupancy.first?.free == 0 && occupancy.first?.booked == 2)
                #expect(occupancy.last?.rooms == 2 && occupancy.last?.free == 2)

                #expect(
                    try await first.stays(.patch, "/admin/room-types/2", json: #"{"rooms": 4}"#, token: Self.admin)
                        .status == .ok)
                #expect(try await second.staysRoom("Double", token: anna.token)?.available == 2)
                #expect(
                    try await first.stays(.patch, "/admin/room-types/9", json: #"{"rooms": 4}"#, token: Self.admin)
                        .status == .notFound)
                #expect(
                    try await first.stays(.patch, "/admin/room-types/2", json: #"{"rooms": -1}"#, token: Self.admin)
                        .status == .badRequest)
                // Rules and prices reach the other instance within a second.
                _ = try await first.stays(
                    .put, "/admin/rates", json: #"{"roomTypes": [{"id": 2, "baseRateCents": 25000}]}"#,
                    token: Self.admin)
                #expect(try await first.staysRoom("Double", token: anna.token)?.price == 250)
                try await Task.sleep(for: .milliseconds(1100))
                #expect(try await second.staysRoom("Double", token: anna.token)?.price == 250)
                #expect(try await second.staysRoom("Double", token: anna.token)?.description == "Two doubles left.")
            }
        }
    }
}

extension TestClientProtocol {
    /// The fixture's two nights for two: the offer of `type`, or nil when it is not offered.
    func staysRoom(_ type: String, token: String) async throws -> Stays.RoomHotel? {
        try await stays(.get, StaysAdminWriteHTTPTests.search, token: token, as: [Stays.RoomHotel].self).require()
            .first { $0.roomType == type }
    }
}
