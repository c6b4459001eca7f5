public import Foundation

/// Where the events vertical keeps venues, shows and bookings. Seats' availability is the
/// platform's inventory (`EventUnits.key`); a checkout writes its hold, order, payment and
/// booking in one transaction.
public protocol EventsStore: Sendable {
    /// Writes the venue and the shows (and their seats' inventory) unless the venue exists.
    func seedIfEmpty(venue: EventVenue, shows: [EventShow]) async throws
    func venue(id: String) async throws -> EventVenue?
    /// Writes an imported venue with its sections and seats, all of it or nothing.
    func insertVenue(_ venue: EventVenue) async throws
    /// Every venue, by name.
    func venues() async throws -> [EventVenue]
    func shows() async throws -> [EventShow]
    /// Writes a new show, its prices and one inventory unit per seat, all of it or nothing.
    func insertShow(_ show: EventShow, seats: [EventSeat]) async throws
    /// Replaces a show's details, on-sale window and prices (its seats stay as they are).
    func updateShow(_ show: EventShow) async throws
    func show(id: String) async throws -> EventShow?
    /// Every seat of the show that is not available, by seat id.
    func takenSeats(showID: String) async throws -> [String: SeatState]
    /// Those of `seatIDs` that are not available: a few look-ups, after a racer took a named seat.
    func takenSeats(showID: String, among seatIDs: [String]) async throws -> [String: SeatState]
    /// Blocks the seats for house use, all or none: a seat held or sold throws
    /// `SeatsUnavailableError` naming it. A seat blocked already stays so.
    func blockHouseSeats(showID: String, seatIDs: [String]) async throws
    /// Puts house seats back on sale; other seats are left as they are.
    func releaseHouseSeats(showID: String, seatIDs: [String]) async throws
    /// The show's seats held by `ownerID`'s unexpired holds.
    func seatsHeld(showID: String, ownerID: String, now: Date) async throws -> Set<String>

    /// In one transaction: places the hold (throws `hold_unavailable`, writing nothing), the
    /// order, the payment and the booking, and enforces `cap` on the account's unpaid orders and
    /// `seatCap` on its seats of the show (throws their 429, writing nothing). False when the
    /// order's reference is taken.
    func insertCheckout(
        _ booking: EventBooking, hold: NewHold, order: Order, event: OrderEvent, payment: PaymentRecord,
        cap: OpenOrderCap?, seatCap: SeatsPerShowCap?
    ) async throws -> Bool
    func booking(orderID: String) async throws -> EventBooking?
    func booking(sessionID: String) async throws -> EventBooking?
    /// Newest first.
    func bookings(accountID: String) async throws -> [EventBooking]
    func booking(ticketSecret: String) async throws -> EventBooking?
    func bookings(showID: String) async throws -> [EventBooking]
    func markCancelled(showID: String) async throws
    func checkedInSeats(showID: String) async throws -> Int
    /// Records each seat's admission unless it was admitted before (a unique row per seat):
    /// answers the seats admitted now and the earliest earlier admission.
    func admit(orderID: String, seatIDs: [String], gate: String, at: Date) async throws -> (
        admitted: [String], firstAt: Date?
    )
    /// The box office's order list, newest first, optionally of one show or in one state.
    func orders(showID: String?, state: EventBooking.State?, limit: Int, offset: Int) async throws -> [EventBooking]
    /// The order's admitted seats, first scan first.
    func checkIns(orderID: String) async throws -> [SeatCheckIn]
}

/// One seat admitted at the door.
public struct SeatCheckIn: Sendable, Equatable {
    public let seatID: String
    public let gate: String
    public let at: Date

    public init(seatID: String, gate: String, at: Date) {
        self.seatID = seatID
        self.gate = gate
        self.at = at
    }
}
