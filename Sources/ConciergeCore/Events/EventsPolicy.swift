/// The vertical's numbers: how long seats are held while paying, until when a booking can be
/// cancelled with a refund, and how many seats one order may hold.
public struct EventsPolicy: Sendable, Equatable {
    /// `CONCIERGE_EVENTS_HOLD_MINUTES` (1–120).
    public var holdMinutes = 15
    /// `CONCIERGE_EVENTS_CANCEL_HOURS`: free cancellation until this long before the show.
    public var cancelHours = 48
    public var maximumSeatsPerOrder = 10
    /// `CONCIERGE_EVENTS_MAX_SEATS_PER_SHOW`: seats one account may hold and own for one show,
    /// held and sold together (0: no cap).
    public var maximumSeatsPerShow = 10
    /// `CONCIERGE_EVENTS_MAX_UNPAID_ORDERS`, `CONCIERGE_EVENTS_MAX_ORDERS_PER_HOUR` and the
    /// platform's `CONCIERGE_ORDERS_PER_NETWORK_PER_MINUTE`.
    public var limits = OrderLimits()
    /// `CONCIERGE_EVENTS_SEAT_STATES_MAX_AGE_MS`: how long a show's seat states read from the
    /// database are reused (`SeatStateCache`); 0 reads them for every request.
    public var seatStatesMaxAgeMilliseconds = 500
    /// Where links and redirects point, e.g. `https://tickets.example.com`.
    public var publicURL = "http://127.0.0.1:8080"

    public init() {}
}
