public import Foundation

/// Rides on the platform's order lifecycle: every payment, expiry, cancellation and refund of a
/// ride is the lifecycle's (`OrderLifecycle`); rides brings its words, its 24-hour cancellation
/// rule and its late-payment rule (the pickup must still be far enough ahead). A ride has no
/// hold: its quote's expiry is the order's `expiresAt`.
extension BookingService: PaymentOwner {
    public var vertical: String { Self.vertical }

    /// The dispatcher's entry, behind webhooks, the return page and the sandbox checkout.
    public func applyPayment(_ snapshot: PaymentSnapshot, record: PaymentRecord) async throws {
        try await lifecycle.paymentReported(snapshot, orderID: record.orderID, vertical: self)
    }

    /// Expires every unpaid booking whose quote lapsed (the lifecycle's expiry, one order at a
    /// time with its own backoff). Run by the background service and at start.
    @discardableResult
    public func expireLapsedBookings(limit: Int = 100) async throws -> Int {
        try await lifecycle.expireLapsedOrders(of: self, limit: limit)
    }

    /// The booking as it is once a lapsed quote is settled (expired, or paid after all).
    func expireIfLapsed(_ booking: Booking) async throws -> Booking {
        guard booking.state == .awaitingPayment, clock.now >= booking.quoteExpiresAt else { return booking }
        try await lifecycle.expireIfLapsed(orderID: booking.id, vertical: self)
        return try await store.booking(reference: booking.reference) ?? booking
    }

    /// Whether the booking could be made now: the pickup is still far enough ahead.
    func rulesStillHold(_ booking: Booking, _ now: Date) -> Bool {
        (try? rules.checkPickupTime(booking.pickupAt, now: now)) != nil
    }

    // MARK: Cancelling

    /// The customer cancels: free until `freeCancellationHours` before pickup, refunded through
    /// the provider; later → 409 with the policy. A ride the operations team has moved on (a
    /// chauffeur assigned, en route, …) is not the customer's to cancel: 409 `not_cancellable`.
    public func cancel(reference: String, customer: Customer) async throws -> Booking {
        let booking = try await booking(reference: reference, customerID: customer.id)
        switch booking.state {
        case .cancelled: return booking
        case .awaitingPayment, .confirmed: break
        default: throw Self.notCancellable(booking)
        }
        do {
            _ = try await lifecycle.cancel(
                orderID: booking.id, actor: "customer:\(customer.id)", terms: { _ in cancellationTerms(booking) },
                vertical: self)
        } catch let error as ConciergeError where error.code == "not_cancellable" {
            // Dispatch moved the ride between our read and the lifecycle's write: rides' words.
            throw Self.notCancellable(try await self.booking(reference: reference, customerID: customer.id))
        }
        return try await self.booking(reference: reference, customerID: customer.id)
    }

    /// Rides' policy: free until `freeCancellationHours` before pickup, refused after.
    func cancellationTerms(_ booking: Booking) -> CancellationTerms {
        let deadline = booking.pickupAt.addingTimeInterval(-Double(rules.freeCancellationHours) * 3600)
        return CancellationTerms(
            freeUntil: deadline,
            afterDeadline: .refuse(
                ConciergeError(
                    .conflict, code: "cancellation_window_closed",
                    message:
                        "Rides can be cancelled free of charge until \(rules.freeCancellationHours) hours before pickup (\(ZurichTime.describe(deadline))). Please contact us to change this ride."
                )))
    }

    static func notCancellable(_ booking: Booking) -> ConciergeError {
        ConciergeError(
            .conflict, code: "not_cancellable",
            message:
                "This booking is \(booking.state.rawValue.replacingOccurrences(of: "_", with: " ")) and can no longer be cancelled."
        )
    }
}

extension BookingService {
    /// Operations give part of a paid ride's fare back (the ride stands).
    public func refundInPart(orderID: String, cents: Int, reason: String, actor: String) async throws -> Int {
        _ = try await lifecycle.refundPart(orderID: orderID, cents: cents, actor: actor, reason: reason, vertical: self)
        return cents
    }
}

extension BookingService: OrderVertical {
    /// Rides' messages: the confirmation, the cancellation notice (also when a payment arrived
    /// after the booking was cancelled and went back), the late-payment refund. A payment of
    /// another amount goes back without a message, as before.
    public func message(_ notice: OrderNotice, for order: LifecycleOrder) async throws -> OutboxMessage? {
        guard let booking = try await store.booking(reference: order.reference) else { return nil }
        switch notice {
        case .confirmed: return try await confirmation(for: booking)
        case .cancelled, .refundedAfterCancel, .withdrawn: return try await cancellationNotice(for: booking)
        case .refundedLate: return try await lateRefundNotice(for: booking)
        case .refundedMismatch: return nil
        case .refundedInPart(let cents, let reason):
            return try await partialRefundNotice(for: booking, cents: cents, reason: reason)
        }
    }

    /// A ride has no hold: a payment after the quote lapsed is honoured while the pickup is
    /// still far enough ahead.
    public func canStillBeMade(_ order: LifecycleOrder, now: Date) async throws -> Bool {
        guard let booking = try await store.booking(reference: order.reference) else { return false }
        return rulesStillHold(booking, now)
    }

    public func label(_ order: LifecycleOrder) -> String { "Concierge ride \(order.reference)" }
}
