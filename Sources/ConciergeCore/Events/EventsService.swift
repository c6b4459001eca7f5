import Foundation

/// The seat-map tickets vertical over the platform: the catalogue, seat checkouts (named seats
/// all or nothing, or best available) through the platform holds, orders and payments, and the
/// one payment transition (`EventsService+Payments`).
public struct EventsService: Sendable {
    public static let vertical = "events"

    let store: any EventsStore
    let scanners: any ScannerTokenStore
    let holds: any HoldStore
    let orders: any OrderStore
    let payments: any PaymentProvider
    /// The platform's order lifecycle: payments, expiry, cancellations and refunds of seat orders.
    let lifecycle: OrderLifecycle
    let policy: EventsPolicy
    /// The platform's per-customer limits, with events' numbers (`policy.limits`).
    let limits: OrderLimitChecker
    let clock: any TimeSource
    let random: any RandomSource
    let references = OrderReferenceGenerator(prefix: "EVT-")
    /// Shared by copies of this service: one per instance.
    let seatStates: SeatStateCache
    /// Tells the other instances on the database of this one's committed seat changes, and marks
    /// theirs stale in `seatStates`; nil with one instance (SQLite).
    let seatChanges: SeatChangeNotices?
    public let signer: TicketSigner

    public init(
        store: any EventsStore & ScannerTokenStore, holds: any HoldStore, orders: any OrderStore,
        payments: any PaymentProvider, orderLimits: any OrderLimitStore, lifecycle: any OrderLifecycleStore,
        policy: EventsPolicy, clock: any TimeSource, random: any RandomSource, signer: TicketSigner,
        cluster: (any ClusterNotices)? = nil
    ) {
        self.lifecycle = OrderLifecycle(
            store: lifecycle, holds: holds, payments: payments, clock: clock, random: random)
        self.limits = OrderLimitChecker(limits: policy.limits, store: orderLimits, clock: clock, random: random)
        self.signer = signer
        self.store = store
        self.scanners = store
        self.holds = holds
        self.orders = orders
        self.payments = payments
        self.policy = policy
        self.clock = clock
        self.random = random
        let seatStates = SeatStateCache(maxAge: .milliseconds(policy.seatStatesMaxAgeMilliseconds))
        self.seatStates = seatStates
        self.seatChanges = cluster.map { SeatChangeNotices(cluster: $0, cache: seatStates) }
    }

    /// The show's seat states changed here and the change committed: the other instances hear it.
    func announceSeatChange(showID: String) {
        seatChanges?.announce(showID: showID)
    }

    // MARK: Catalogue

    public func shows(_ query: ShowQuery) async throws -> [ShowSummary] {
        var summaries: [ShowSummary] = []
        for show in try await store.shows().sorted(by: { ($0.startsAt, $0.id) < ($1.startsAt, $1.id) }) {
            let summary = try await summary(of: show)
            if summary.matches(query) { summaries.append(summary) }
        }
        return Array(summaries.dropFirst(query.offset).prefix(query.limit))
    }

    public func show(id: String) async throws -> ShowSummary {
        guard let show = try await store.show(id: id) else { throw ConciergeError.showNotFound(id) }
        return try await summary(of: show)
    }

    /// Every seat of the show with its state; `viewer`'s own held seats are marked.
    public func seats(showID: String, viewer: String?) async throws -> (
        summary: ShowSummary, taken: SeatStateCache.Snapshot, mine: Set<String>
    ) {
        // One read of the taken seats serves the summary's count and the map (a 2,000-seat show's
        // read was half the seat map's work, and it ran twice).
        guard let show = try await store.show(id: showID) else { throw ConciergeError.showNotFound(showID) }
        let taken = try await takenSeats(showID: showID)
        let summary = try await summary(of: show, takenCount: taken.taken.count)
        var mine: Set<String> = []
        if let viewer { mine = try await store.seatsHeld(showID: showID, ownerID: viewer, now: clock.now) }
        return (summary, taken, mine)
    }

    func summary(of show: EventShow) async throws -> ShowSummary {
        try await summary(of: show, takenCount: try await takenSeats(showID: show.id).taken.count)
    }

    /// The show's seat states as this instance knows them (`SeatStateCache`); `fresh` reads the
    /// database. The box office's counts and house seats read the database directly.
    func takenSeats(showID: String, fresh: Bool = false) async throws -> SeatStateCache.Snapshot {
        try await seatStates.taken(showID: showID, fresh: fresh) { try await store.takenSeats(showID: showID) }
    }

    func summary(of show: EventShow, takenCount: Int) async throws -> ShowSummary {
        guard let venue = try await store.venue(id: show.venueID) else { throw ConciergeError.showNotFound(show.id) }
        return ShowSummary(show: show, venue: venue, availableSeats: venue.seats.count - takenCount, now: clock.now)
    }

    // MARK: Bookings

    /// A booking with its show and venue, for the wire.
    public struct BookingView: Sendable {
        public let booking: EventBooking
        public let show: EventShow
        public let venue: EventVenue
        /// The signed scan payload, once confirmed.
        public let qrCode: String?
    }

    public func bookings(accountID: String) async throws -> [BookingView] {
        var views: [BookingView] = []
        for booking in try await store.bookings(accountID: accountID) { views.append(try await view(booking)) }
        return views
    }

    public func booking(orderID: String, accountID: String) async throws -> EventBooking {
        guard let booking = try await store.booking(orderID: orderID), booking.accountID == accountID else {
            throw ConciergeError.eventsBookingNotFound
        }
        return booking
    }

    public func view(_ booking: EventBooking) async throws -> BookingView {
        // The show and its venue only: the free-seat count (a read of every seat's state) is not
        // part of a booking, and the payment's confirmation asks for this view.
        guard let show = try await store.show(id: booking.showID), let venue = try await store.venue(id: show.venueID)
        else { throw ConciergeError.showNotFound(booking.showID) }
        return BookingView(
            booking: booking, show: show, venue: venue,
            qrCode: booking.state == .confirmed ? scanPayload(booking) : nil)
    }

    /// The booking's signed scan payload (what its QR code holds).
    public func scanPayload(_ booking: EventBooking) -> String {
        signer.payload(orderID: booking.orderID, showID: booking.showID, seats: booking.tickets.count)
    }
}
