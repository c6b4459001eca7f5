import Foundation

extension StaysService {
    /// What a guest may hold, beyond the rules of the hotel (security review finding 5: one
    /// fresh account booked out a room type for a week without paying; `docs/limits.md`).
    public struct GuestLimits: Sendable, Equatable {
        /// `CONCIERGE_STAYS_MAX_UNPAID_ORDERS`, `CONCIERGE_STAYS_MAX_ORDERS_PER_HOUR` and the
        /// platform's `CONCIERGE_ORDERS_PER_NETWORK_PER_MINUTE`.
        public var orders = OrderLimits()
        /// `CONCIERGE_STAYS_MAX_ROOMS_PER_NIGHT`: rooms of one type one account may hold on the
        /// same night, held or confirmed (0: no cap). Two: a couple and their parents, say.
        public var roomsPerNight = 2
        /// `CONCIERGE_STAYS_PAY_AT_HOTEL_NEEDS_VERIFIED_EMAIL`: a reservation paid at the hotel is
        /// confirmed at once and costs nothing to make, so the guest must have proved an email.
        public var payAtHotelNeedsVerifiedEmail = true

        public init() {}
    }

    /// The checks before a reservation is made: the per-network limit, a verified email for
    /// pay-at-hotel, unpaid orders and orders per hour, and rooms of one type per night.
    func checkLimits(
        guest: StaysGuest, type: HotelSettings.RoomType, range: StayRange, emailVerified: Bool, clientIP: String,
        hotel: HotelSettings
    ) async throws {
        try await limits.admit(clientIP: clientIP)
        if type.paymentPolicy == .payAtHotel, guestLimits.payAtHotelNeedsVerifiedEmail, !emailVerified {
            throw ConciergeError.staysEmailNotVerified
        }
        // The guest's reservations are read only for a cap that counts them: with every cap off
        // (the benchmarks) a guest with thousands of them costs nothing here.
        guard guestLimits.orders.maxPerHour > 0 || guestLimits.orders.maxOpenUnpaid > 0 || guestLimits.roomsPerNight > 0
        else { return }
        let now = clock.now
        let mine = try await store.reservations(guestID: guest.guestID)
        // Pay-at-hotel reservations write no platform order (only prepaid ones do): they count
        // towards the hourly cap from the vertical's own table.
        let atHotel = mine.filter { $0.prepayment == nil && $0.createdAt >= now.addingTimeInterval(-3600) }.map {
            RecentOrder(state: $0.status.rawValue, createdAt: $0.createdAt, paymentExpiresAt: nil)
        }
        let caps = roomsPerNightCap(mine, type: type, range: range, now: now, hotel: hotel).map { [$0] } ?? []
        try await limits.check(accountID: guest.accountID, scope: limitScope(hotel), caps: caps, alsoCounting: atHotel)
    }

    /// A prepaid order is open while its nights are held for the payment.
    func limitScope(_ hotel: HotelSettings) -> OrderLimitScope {
        OrderLimitScope(
            vertical: Self.vertical, openStates: [StaysReservationRecord.Status.pendingPayment.rawValue],
            openLifetime: Double(prepay.holdMinutes * 60), timeZone: hotel.calendar.timeZone)
    }

    /// The most rooms of `type` the guest holds on one night of `range`, as a cap of one more.
    func roomsPerNightCap(
        _ reservations: [StaysReservationRecord], type: HotelSettings.RoomType, range: StayRange, now: Date,
        hotel: HotelSettings
    ) -> OrderCap? {
        guard guestLimits.roomsPerNight > 0 else { return nil }
        let holding = reservations.filter {
            $0.roomTypeID == type.id && $0.checkIn < range.checkOut && $0.checkOut > range.checkIn
                && ($0.status == .confirmed
                    || ($0.status == .pendingPayment && ($0.prepayment?.expiresAt ?? .distantPast) > now))
        }
        var busiest: (night: StayNight, rooms: Int)?
        for night in range.nights {
            let rooms = holding.filter { $0.checkIn <= night && night < $0.checkOut }.count
            if rooms > (busiest?.rooms ?? 0) { busiest = (night, rooms) }
        }
        guard let busiest else { return nil }
        let released = holding.filter { $0.status == .pendingPayment }.compactMap { $0.prepayment?.expiresAt }.min()
        var message =
            "You already have \(busiest.rooms) \(type.type) rooms on the night of \(busiest.night), and one guest may have \(guestLimits.roomsPerNight) of a kind a night. "
        if let released {
            message +=
                "Pay for or cancel one of those reservations, or wait until the unpaid one is released at \(OrderLimitChecker.clockTime(released, in: hotel.calendar.timeZone)); or choose other dates."
        } else {
            message += "Cancel one of those reservations or choose other dates or another room type, then try again."
        }
        return OrderCap(
            code: "too_many_rooms_per_night", limit: guestLimits.roomsPerNight, current: busiest.rooms, adding: 1,
            retryAfterSeconds: released.map { OrderLimitChecker.seconds(from: now, to: $0) } ?? prepay.holdMinutes * 60,
            message: message)
    }
}

extension ConciergeError {
    /// 409, as the stays contract answers a reservation that cannot be made as asked.
    static let staysEmailNotVerified = ConciergeError(
        .conflict, code: "email_not_verified",
        message:
            "Please confirm your email address first: open the link we sent you, or ask for a new one. Or choose a room type that is paid in advance when you book."
    )
}

extension StaysService {
    /// Whether a reservation of this room type needs the guest's verified email (pay-at-hotel
    /// with the rule on): the caller asks the accounts only then.
    public func needsVerifiedEmail(roomTypeID: Int64, hotel: HotelSettings) -> Bool {
        guestLimits.payAtHotelNeedsVerifiedEmail && hotel.roomType(id: roomTypeID)?.paymentPolicy == .payAtHotel
    }
}
