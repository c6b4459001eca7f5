public import Foundation

/// What an `Idempotency-Key` claim found.
public enum IdempotencyClaim: Sendable, Equatable {
    /// The key is new and now ours; run the request.
    case claimed
    /// The same request ran before; here is its answer.
    case replay(response: String)
    /// The key was used with another body.
    case mismatch
    /// The same request is running right now (a concurrent retry).
    case inProgress
}

/// An `Idempotency-Key` to claim for a request.
public struct IdempotencyClaimRequest: Sendable {
    public let customerID: String
    public let key: String
    public let requestHash: String
    public let now: Date
    /// An unanswered claim older than this is taken over.
    public let staleBefore: Date

    public init(customerID: String, key: String, requestHash: String, now: Date, staleBefore: Date) {
        self.customerID = customerID
        self.key = key
        self.requestHash = requestHash
        self.now = now
        self.staleBefore = staleBefore
    }
}

/// What inserting a booking did.
public enum BookingInsertion: Sendable, Equatable {
    case inserted
    /// The reference is taken; nothing was written. Draw another.
    case referenceTaken
    /// Another request holds the idempotency key; nothing was written.
    case keyTaken(IdempotencyClaim)
}

/// The answer an `Idempotency-Key` replays.
public struct IdempotencyAnswer: Sendable {
    public let customerID: String
    public let key: String
    public let response: String

    public init(customerID: String, key: String, response: String) {
        self.customerID = customerID
        self.key = key
        self.response = response
    }
}

/// Persistence for ride bookings. State changes are conditional writes: a transition happens
/// only from the states given, so concurrent and replayed deliveries change nothing twice.
public protocol BookingStore: Sendable {
    /// Claims `key` for this request. A claim still unanswered since before `staleBefore` is
    /// taken over: its server died mid-request, and the client's retry must not wait a day.
    func claimIdempotencyKey(customerID: String, key: String, requestHash: String, now: Date, staleBefore: Date)
        async throws -> IdempotencyClaim
    func completeIdempotencyKey(customerID: String, key: String, response: String) async throws
    func releaseIdempotencyKey(customerID: String, key: String) async throws
    /// Forgets keys older than `before` (they are kept 24 hours).
    func pruneIdempotencyKeys(before: Date) async throws

    /// What a claim would find, without claiming: nil when the key is free (or abandoned).
    func lookUpIdempotencyKey(customerID: String, key: String, requestHash: String, staleBefore: Date) async throws
        -> IdempotencyClaim?
    /// Inserts the booking and its first event and, in the same transaction, claims the
    /// idempotency key: the booking exists exactly when the claim does.
    func insertBooking(_ booking: Booking, event: BookingEvent, claiming: IdempotencyClaimRequest?) async throws
        -> BookingInsertion
    /// Records the booking's payment and, in the same transaction, the answer its
    /// `Idempotency-Key` replays from now on.
    func attachPayment(
        bookingID: String, provider: String, paymentID: String, checkoutURL: String, answering: IdempotencyAnswer?
    ) async throws
    /// Removes a booking whose payment could not be created, so no booking is left without one.
    func deleteBookingWithoutPayment(id: String) async throws

    func booking(reference: String) async throws -> Booking?
    func booking(paymentProvider: String, paymentID: String) async throws -> Booking?
    /// The customer's bookings, newest first.
    func bookings(customerID: String, limit: Int, offset: Int) async throws -> [Booking]
    func events(bookingID: String) async throws -> [BookingEvent]

    /// Moves the booking to `to` if it is in one of `from`, appending `event` and queueing
    /// `notification` in the same transaction. Returns the updated booking, or nil when its
    /// state was not one of `from` (someone else got there first).
    func transition(
        bookingID: String, from: Set<BookingState>, to: BookingState, paymentStatus: PaymentStatus?,
        event: BookingEvent, notification: PendingNotification?
    ) async throws -> Booking?
    /// Every booking matching the filter, pickup time ascending (the dispatcher's view).
    func bookings(state: BookingState?, pickupFrom: Date?, pickupTo: Date?, limit: Int, offset: Int) async throws
        -> [Booking]
    /// Stores the assigned chauffeur.
    func assignDriver(bookingID: String, driver: Driver) async throws

    /// Records the provider's payment status without a state change.
    func recordPaymentStatus(bookingID: String, status: PaymentStatus) async throws

    /// Unpaid bookings whose quote lapsed at or before `now`.
    func lapsedUnpaidBookings(now: Date, limit: Int) async throws -> [Booking]
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
