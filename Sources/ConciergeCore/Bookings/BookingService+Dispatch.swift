public import Foundation

/// What the operations team does with a confirmed ride.
extension BookingService {
    public func adminBookings(state: BookingState?, pickupFrom: Date?, pickupTo: Date?, limit: Int, offset: Int)
        async throws -> [Booking]
    {
        try await store.bookings(state: state, pickupFrom: pickupFrom, pickupTo: pickupTo, limit: limit, offset: offset)
    }

    public func adminBooking(reference: String) async throws -> Booking {
        guard let booking = try await store.booking(reference: reference.uppercased()) else {
            throw ConciergeError(
                .notFound, code: "booking_not_found", message: "There is no booking '\(reference.prefix(20))'.")
        }
        return try await expireIfLapsed(booking)
    }

    /// Moves a ride one step: driver_assigned (with the driver) → en_route → arrived → on_board
    /// → completed, or no_show. Anything else is refused with the allowed next steps.
    public func advance(reference: String, to target: BookingState, driver: Driver?) async throws -> Booking {
        let booking = try await adminBooking(reference: reference)
        let allowed = RideProgress.next[booking.state] ?? []
        guard allowed.contains(target) else {
            let options = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            throw ConciergeError(
                .conflict, code: "invalid_transition",
                message:
                    "A \(booking.state.rawValue) ride cannot become \(target.rawValue)\(options.isEmpty ? "; it is finished." : ". Next can be: \(options).")"
            )
        }
        if target == .driverAssigned {
            guard let driver, !driver.name.isEmpty, !driver.phone.isEmpty, !driver.vehicle.isEmpty,
                !driver.plate.isEmpty
            else {
                throw ConciergeError(
                    .invalidInput, code: "driver_required",
                    message: "Assigning a driver needs the driver's name, phone, vehicle and plate.")
            }
        }
        let detail =
            target == .driverAssigned
            ? "driver \(driver?.name ?? ""), \(driver?.vehicle ?? "") \(driver?.plate ?? "")" : ""
        guard
            let moved = try await store.transition(
                bookingID: booking.id, from: [booking.state], to: target,
                event: BookingEvent(
                    bookingID: booking.id, at: clock.now, type: target.rawValue, actor: "admin", detail: detail),
                driver: target == .driverAssigned ? driver : nil)
        else {
            throw ConciergeError(
                .conflict, code: "invalid_transition", message: "The ride changed meanwhile; reload and try again.")
        }
        return moved
    }
}
