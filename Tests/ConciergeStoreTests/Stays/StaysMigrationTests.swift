import ConciergeCore
import ConciergeTestSupport
import Foundation
import Testing

@testable import ConciergeStore

/// A database from before the platform inventory keeps its stays: each night's booked count
/// becomes a unit sold that often, reservations keep their ids (and new ones follow them), and
/// storing the hotel gives the units its room counts.
@Suite struct StaysMigrationTests {
    @Test(arguments: TestEngine.all)
    func bookedNightsBecomeSoldUnitsAndReservationsKeepTheirIds(engine: TestEngine) async throws {
        let database = try await engine.openEmpty()
        let before = MigrationGroup(
            module: "stays",
            migrations: [StaysMigrations.guestsNightsReservations, StaysMigrations.idempotencyKeysByAge])
        _ = try await Migrator(database: database, groups: MigrationGroups.platform + [before]).migrate()
        let at = SQLValue(Date(timeIntervalSince1970: 1_790_000_000))
        try await database.query(
            """
            INSERT INTO stays_guests (account_id, username, first_name, last_name, email, phone, created_at)
            VALUES ('acc_1', 'anna', 'Anna', 'Meier', 'anna@example.ch', '+41791234567', ?)
            """, [at])
        for night in ["2027-02-01", "2027-02-02"] {
            try await database.query(
                "INSERT INTO stays_nights (room_type_id, night, booked) VALUES (2, ?, 3)", [.text(night)])
        }
        try await database.query(
            """
            INSERT INTO stays_reservations (guest_id, account_id, room_type_id, check_in, check_out, people, purpose,
                accommodation_cents, city_tax_cents, vat_included_cents, first_night_cents, currency, status,
                confirmation_code, created_at)
            VALUES (1, 'acc_1', 2, '2027-02-01', '2027-02-03', 2, '', 36000, 1000, 1318, 18000, 'CHF', 'confirmed',
                'ABCDEFGH', ?)
            """, [at])

        _ = try await Migrator(database: database).migrate()

        let units = try await SQLHoldStore(database: database).units(keys: [
            "stays:room2:2027-02-01", "stays:room2:2027-02-02",
        ])
        #expect(units.map(\.sold) == [3, 3] && units.map(\.held) == [0, 0] && units.map(\.capacity) == [3, 3])
        let store = SQLStaysStore(database: database)
        let kept = try #require(try await store.reservation(id: 1))
        #expect(kept.status == .confirmed && kept.paymentPolicy == .payAtHotel && kept.prepayment == nil)

        let stored = try await SQLStaysHotelStore(database: database).seed(.demo, at: Date())
        #expect(stored.version == 1 && stored.hotel.roomType(id: 2)?.rooms == 12)
        let free = try await store.free(
            [StayNight("2027-02-01")!, StayNight("2027-02-02")!], rooms: [2: 12, 3: 6])
        #expect(free == [2: 9, 3: 6])

        let hotel = HotelSettings.demo
        let range = try StayRange(
            checkIn: StayNight("2027-02-01")!, checkOut: StayNight("2027-02-02")!,
            today: StayNight("2027-01-15")!, hotel: hotel)
        let type = try #require(hotel.roomType(id: 2))
        let guest = try #require(try await store.guest(accountID: "acc_1"))
        let outcome = try await store.reserve(
            NewStaysReservation(
                guest: guest, roomTypeID: 2, rooms: 12, range: range, people: 2, purpose: "",
                quote: StayQuote(roomType: type, range: range, people: 2, hotel: hotel), currency: "CHF",
                confirmationCode: "JKLMNPQR", idempotencyKey: nil, createdAt: Date()), cap: nil
        ) { _ in nil }
        guard case .created(let made, _) = outcome else { throw StaysMigrationFailure() }
        #expect(made.id == 2)
        #expect(try await store.free([StayNight("2027-02-01")!], rooms: [2: 12]) == [2: 8])
        try await database.close()
    }
}

private struct StaysMigrationFailure: Error {}
