import ConciergeCore
import Foundation

/// Mapping between `Booking` and its row.
enum BookingRow {
    static func columns(of booking: Booking) -> [(String, SQLValue)] {
        [
            ("id", .text(booking.id)), ("reference", .text(booking.reference)),
            ("public_secret", .text(booking.publicSecret)), ("customer_id", .text(booking.customerID)),
            ("pickup_place_id", .text(booking.pickup.placeId)),
            ("pickup_description", .text(booking.pickup.description)),
            ("pickup_name", .text(booking.pickup.name)), ("pickup_kind", .text(booking.pickup.kind.rawValue)),
            ("pickup_time_zone", .text(booking.pickup.timeZone)),
            ("destination_place_id", .text(booking.destination.placeId)),
            ("destination_description", .text(booking.destination.description)),
            ("destination_name", .text(booking.destination.name)),
            ("destination_kind", .text(booking.destination.kind.rawValue)),
            ("destination_time_zone", .text(booking.destination.timeZone)), ("pickup_at", SQLValue(booking.pickupAt)),
            ("passengers", SQLValue(booking.passengers)), ("vehicle_class", .text(booking.vehicleClass.rawValue)),
            ("flight_number", SQLValue(booking.flightNumber)), ("price_cents", SQLValue(booking.priceCents)),
            ("currency", .text(booking.currency)), ("distance_meters", SQLValue(booking.distanceMeters)),
            ("duration_seconds", SQLValue(booking.durationSeconds)), ("state", .text(booking.state.rawValue)),
            ("quote_expires_at", SQLValue(booking.quoteExpiresAt)), ("created_at", SQLValue(booking.createdAt)),
        ]
    }

    /// Reads a row of `SQLBookingStore.selectBookings`: the payment comes from the ledger.
    static func booking(from row: SQLRow) throws -> Booking {
        func place(_ prefix: String) throws -> BookedPlace {
            BookedPlace(
                placeId: try row.string("\(prefix)_place_id"), description: try row.string("\(prefix)_description"),
                name: try row.string("\(prefix)_name"),
                kind: PlaceKind(rawValue: try row.string("\(prefix)_kind")) ?? .poi,
                timeZone: try row.string("\(prefix)_time_zone"))
        }
        return Booking(
            id: try row.string("id"), reference: try row.string("reference"),
            publicSecret: try row.string("public_secret"),
            customerID: try row.string("customer_id"), pickup: try place("pickup"),
            destination: try place("destination"),
            pickupAt: try row.date("pickup_at"), passengers: try row.int("passengers"),
            vehicleClass: VehicleClass(rawValue: try row.string("vehicle_class")) ?? .business,
            flightNumber: try row.optionalString("flight_number"), priceCents: try row.int("price_cents"),
            currency: try row.string("currency"), distanceMeters: try row.int("distance_meters"),
            durationSeconds: try row.int("duration_seconds"),
            state: BookingState(rawValue: try row.string("state")) ?? .awaitingPayment,
            quoteExpiresAt: try row.date("quote_expires_at"), createdAt: try row.date("created_at"),
            paymentProvider: try row.optionalString("ledger_provider"),
            paymentID: try row.optionalString("ledger_payment_id"),
            checkoutURL: try row.optionalString("ledger_checkout_url"),
            paymentStatus: try row.optionalString("ledger_payment_status").flatMap(PaymentStatus.init(rawValue:)),
            driver: try row.optionalString("driver_name").map { name in
                Driver(
                    name: name, phone: try row.optionalString("driver_phone") ?? "",
                    vehicle: try row.optionalString("driver_vehicle") ?? "",
                    plate: try row.optionalString("driver_plate") ?? "")
            }, paymentRecordID: try row.optionalString("ledger_payment_record_id"))
    }
}
