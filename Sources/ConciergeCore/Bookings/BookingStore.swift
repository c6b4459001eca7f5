public import Foundation

/// What inserting a booking did.
public enum BookingInsertion: Sendable, Equatable {
    case inserted
    /// The reference is taken; nothing was written. Draw another.
    case referenceTaken
    /// Another request holds the idempotency key; nothing was written.
    case keyTaken(IdempotencyClaim)
}

/// Everything one new booking writes, in one transaction: the order, the ride, the payment the
/// provider opened for it, and the answer its `Idempotency-Key` replays.
public struct NewBooking: Sendable {
    public let booking: Booking
    public let order: Order
    public let event: BookingEvent
    public let payment: PaymentRecord
    /// The key to claim, with the rendered answer it replays from now on.
    public let idempotency: IdempotencyAnswer?

    public init(
        booking: Booking, order: Order, event: BookingEvent, payment: PaymentRecord,
        idempotency: IdempotencyAnswer?
    ) {
        self.booking = booking
        self.order = order
        self.event = event
        self.payment = payment
        self.idempotency = idempotency
    }
}

/// Persistence for ride bookings. State changes are conditional writes: a transition happens
/// only from the states given, so concurrent and replayed deliveries change nothing twice.
public protocol BookingStore: Sendable {
    /// Writes the order, the booking, its first event, its payment and the idempotency answer
    /// in one transaction: a booking exists exactly when its payment record and key do.
    func insertBooking(_ new: NewBooking) async throws -> BookingInsertion

    func booking(reference: String) async throws -> Booking?
    func booking(paymentProvider: String, paymentID: String) async throws -> Booking?
    /// The customer's bookings, newest first.
    func bookings(customerID: String, limit: Int, offset: Int) async throws -> [Booking]
    func events(bookingID: String) async throws -> [BookingEvent]

    /// Moves a confirmed ride on (dispatch: a chauffeur assigned, en route, …) if it is in one of
    /// `from`, appending `event` in the same transaction; the order's state follows. Returns the
    /// updated booking, or nil when its state was not one of `from` (someone else got there
    /// first). Payments, expiry and cancellation move bookings through the platform's
    /// `OrderLifecycle` instead. A `driver` is stored in the same transaction, so a driver is
    /// never attached to a booking whose state changed meanwhile (security review finding 13).
    func transition(
        bookingID: String, from: Set<BookingState>, to: BookingState, event: BookingEvent, driver: Driver?
    ) async throws -> Booking?
    /// Every booking matching the filter, pickup time ascending (the dispatcher's view).
    func bookings(state: BookingState?, pickupFrom: Date?, pickupTo: Date?, limit: Int, offset: Int) async throws
        -> [Booking]
}

/// The queue of notifications, written with the state changes and drained by a worker.
public protocol NotificationOutbox: Sendable {
    /// Claims up to `limit` notifications that are due: each is leased to the caller until
    /// `leaseUntil`, so two workers (or two instances) never send the same one; a worker that
    /// dies mid-send leaves it to be picked up again when the lease runs out.
    func claimDue(now: Date, leaseUntil: Date, limit: Int) async throws -> [QueuedNotification]
    func markSent(id: Int64, at: Date) async throws
    func markFailed(id: Int64, attempts: Int, retryAt: Date?, error: String) async throws
}

public struct QueuedNotification: Sendable, Equatable {
    public let id: Int64
    public let notification: PendingNotification
    public let attempts: Int

    public init(id: Int64, notification: PendingNotification, attempts: Int) {
        self.id = id
        self.notification = notification
        self.attempts = attempts
    }
}
