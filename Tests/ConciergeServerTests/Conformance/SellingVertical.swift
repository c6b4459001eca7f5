import ConciergeCore
import ConciergeModels
import ConciergeStore
import ConciergeTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// A vertical that sells, as the lifecycle conformance suite drives it through its own HTTP
/// routes: a customer, an order for the n-th unit of its inventory, its cancellation. A new
/// selling vertical adds a case here and passes the suite before it ships.
enum SellingVertical: String, CaseIterable, Sendable, CustomStringConvertible {
    case rides
    case events
    case stays

    var description: String { rawValue }

    /// The verticals whose orders hold units someone else can buy (a ride holds none: its late
    /// payment is refused when the pickup is too near, which the rides suite tests).
    static let withInventory: [SellingVertical] = [.events, .stays]

    /// One order as the suite knows it: the provider's payment id and the vertical's own handle
    /// (an events order id, a stays reservation id).
    struct Placed: Sendable {
        let paymentID: String
        let handle: String
    }

    /// The operations API's token (partial refunds).
    static let adminToken = "conformance-admin-token-0123456789abcdef"

    /// The per-customer caps are the subject of their own tests: here one customer places many
    /// orders, so they are off.
    static let capsOff = [
        "CONCIERGE_ADMIN_TOKEN": adminToken,
        "CONCIERGE_EVENTS_MAX_UNPAID_ORDERS": "0", "CONCIERGE_EVENTS_MAX_ORDERS_PER_HOUR": "0",
        "CONCIERGE_EVENTS_MAX_SEATS_PER_SHOW": "0", "CONCIERGE_STAYS_MAX_UNPAID_ORDERS": "0",
        "CONCIERGE_STAYS_MAX_ORDERS_PER_HOUR": "0", "CONCIERGE_STAYS_MAX_ROOMS_PER_NIGHT": "0",
        "CONCIERGE_ORDERS_PER_NETWORK_PER_MINUTE": "0", "CONCIERGE_BCRYPT_COST": "4",
        "CONCIERGE_MAX_UNPAID_BOOKINGS": "0", "CONCIERGE_MAX_BOOKINGS_PER_HOUR": "0",
    ]

    /// The vertical's server on `engine`; `limits` turns some of the caps back on.
    func app(_ engine: TestEngine, limits: [String: String] = [:]) async throws -> TestApp {
        let capsOff = Self.capsOff.merging(limits) { $1 }
        switch self {
        case .rides, .events:
            return try await TestApp.make(engine: engine, environment: capsOff)
        case .stays:
            // One prepaid room of one type: a unit is one night of it.
            let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "conformance-\(UUID().uuidString).json")
            try """
            {"name": "Conformance Inn", "roomTypes": [
              {"id": 2, "type": "Double", "capacity": 2, "rooms": 1, "baseRateCents": 18000,
               "paymentPolicy": "prepay"}]}
            """.write(to: url, atomically: true, encoding: .utf8)
            return try await TestApp.make(
                engine: engine,
                environment: StaysFixtures.environment.merging(capsOff) { $1 }
                    .merging(["CONCIERGE_STAYS_HOTEL_PATH": url.path]) { $1 })
        }
    }

    /// A signed-in customer's token; `name` tells customers apart.
    func customer(_ name: String, client: any TestClientProtocol, worker: MaintenanceService) async throws -> String {
        switch self {
        case .rides:
            let digits = String(format: "%04d", name.unicodeScalars.reduce(0) { ($0 * 31 + Int($1.value)) % 10_000 })
            return try await client.signedInCustomer(phone: "+4179123\(digits)", email: "\(name)@example.ch")
        case .events: return try await client.eventsBuyer("\(name)@example.ch", worker: worker)
        case .stays: return try await client.staysSignUp(name).token
        }
    }

    /// The vertical's own order request for unit `unit` (a ride's pickup time, a seat of the demo
    /// show, a night of the room), with an `Idempotency-Key` when given.
    func orderRequest(unit: Int, token: String, client: any TestClientProtocol, key: String? = nil) async throws
        -> TestResponse
    {
        var headers: HTTPFields = [:]
        if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
        switch self {
        case .rides:
            // Three days after the test clock's start, a quarter of an hour apart.
            let pickup = Date(timeIntervalSince1970: 1_800_000_000 + 3 * 86_400 + Double(unit) * 900)
            return try await client.book(token: token, pickupAt: pickup, key: key)
        case .events:
            let seat = try await client.eventSeats().keys.sorted()[unit]
            return try await client.send(
                .post, "/events/api/seat-checkout", json: #"{"showId": "shw_demo_1", "specificSeatIds": ["\#(seat)"]}"#,
                token: token, headers: headers)
        case .stays:
            let night = Self.night(unit)
            return try await client.send(
                .post, "/stays/appointment",
                json: StaysFixtures.reserve(room: 2, from: night.in, to: night.out, guests: 1), token: token,
                headers: headers)
        }
    }

    /// An order, awaiting payment, for unit `unit`.
    func order(unit: Int, token: String, client: any TestClientProtocol) async throws -> Placed {
        try placed(from: try await orderRequest(unit: unit, token: token, client: client))
    }

    /// The order an answer to `orderRequest` made (or answered again).
    func placed(from response: TestResponse) throws -> Placed {
        guard response.status == .ok || response.status == .created else {
            throw TestFailure("\(self) order: \(response.status) \(String(buffer: response.body))")
        }
        switch self {
        case .rides:
            let booking = try response.decode(BookingResponse.self)
            guard let url = booking.checkoutUrl, let reference = booking.quoteReference else {
                throw TestFailure("app-book answered no checkout")
            }
            return Placed(paymentID: Self.paymentID(url), handle: reference)
        case .events:
            let checkout = try response.decode(Events.SeatCheckoutResponse.self)
            return Placed(paymentID: Self.paymentID(checkout.url), handle: checkout.orderId)
        case .stays:
            let answer = try JSONDecoder().decode(
                Stays.APIResponse<Stays.Reservation>.self, from: Data(buffer: response.body))
            guard let reservation = answer.data, let url = reservation.payment?.checkoutUrl else {
                throw TestFailure("reserve answered no checkout")
            }
            return Placed(paymentID: Self.paymentID(url), handle: String(reservation.id))
        }
    }

    /// The variable of the vertical's unpaid-order cap.
    var unpaidCapVariable: String {
        switch self {
        case .rides: "CONCIERGE_MAX_UNPAID_BOOKINGS"
        case .events: "CONCIERGE_EVENTS_MAX_UNPAID_ORDERS"
        case .stays: "CONCIERGE_STAYS_MAX_UNPAID_ORDERS"
        }
    }

    /// The customer cancels through the vertical's own route.
    func cancel(_ placed: Placed, token: String, client: any TestClientProtocol) async throws -> HTTPResponse.Status {
        switch self {
        case .rides:
            return try await client.send(.post, "/rides/bookings/\(placed.handle)/cancel", token: token).status
        case .events:
            return try await client.send(.post, "/events/api/user/bookings/\(placed.handle)/cancel", token: token)
                .status
        case .stays:
            return try await client.send(.delete, "/stays/appointment/\(placed.handle)", token: token).status
        }
    }

    /// How long an unpaid order is held on this vertical's defaults, plus a minute.
    var pastTheHold: TimeInterval {
        switch self {
        case .rides: 31 * 60
        case .events: 16 * 60
        case .stays: 31 * 60
        }
    }

    static func paymentID(_ checkoutURL: String) -> String {
        String(checkoutURL.split(separator: "/").last ?? "")
    }

    /// The n-th night from 1 February 2027 (the test clock is mid-January).
    static func night(_ n: Int) -> (in: String, out: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let start = calendar.date(from: DateComponents(year: 2027, month: 2, day: 1))!
        let format = { (date: Date) in
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
        }
        return (
            format(calendar.date(byAdding: .day, value: n, to: start)!),
            format(calendar.date(byAdding: .day, value: n + 1, to: start)!)
        )
    }
}

/// An order's money as the platform's tables hold it, read by its provider payment id.
struct OrderMoney: Sendable {
    let orderID: String
    let status: String
    let paymentStatus: String
    let amountCents: Int
    let refundedCents: Int
    let refundRows: Int

    static func of(paymentID: String, in database: any SQLDatabase) async throws -> OrderMoney {
        guard
            let row = try await database.query(
                """
                SELECT o.id AS order_id, o.status AS status, p.status AS payment_status, p.amount_cents AS amount_cents,
                    p.refunded_cents AS refunded_cents,
                    (SELECT COUNT(*) FROM refunds r WHERE r.payment_id = p.id) AS refund_rows
                FROM payments p JOIN orders o ON o.id = p.order_id WHERE p.provider_payment_id = ?
                """, [.text(paymentID)]
            ).first
        else { throw TestFailure("no order for payment \(paymentID)") }
        return OrderMoney(
            orderID: try row.string("order_id"), status: try row.string("status"),
            paymentStatus: try row.string("payment_status"), amountCents: try row.int("amount_cents"),
            refundedCents: try row.int("refunded_cents"), refundRows: try row.int("refund_rows"))
    }

    /// Kept only when confirmed and not refunded; otherwise every cent went back, in one refund.
    var isSettled: Bool {
        status == "confirmed" ? refundedCents == 0 : refundedCents == amountCents && refundRows == 1
    }
}
