import ConciergeModels
import Foundation

struct RoundTally {
    var bookings = 0
    var payments = 0
    var replays = 0
    var retried = 0
    var inProgress = 0
    var loadErrors = 0
    var firstLoadError: String?
}

/// Everything acknowledged so far, and what was found wrong.
struct DrillState {
    let settleTimeout: Duration
    /// By reference, in the order acknowledged.
    private(set) var bookings: [String: AcknowledgedBooking] = [:]
    private var bookingOrder: [String] = []
    private(set) var payments: [String: AcknowledgedPayment] = [:]
    /// The booking each Idempotency-Key was answered with.
    private var referenceByKey: [String: String] = [:]
    /// The last status seen for each acknowledged booking.
    private var statuses: [String: String] = [:]
    private var verifiedBookings: Set<String> = []
    private(set) var violations: [String] = []
    private var reported: Set<String> = []
    private(set) var confirmationsChecked = 0

    init(settleTimeout: Duration) {
        self.settleTimeout = settleTimeout
    }

    mutating func violation(_ text: String) {
        if reported.insert(text).inserted { violations.append(text) }
    }

    mutating func absorb(_ outcome: ClientOutcome, round: Int, into tally: inout RoundTally) {
        for booking in outcome.bookings { acknowledge(booking, into: &tally) }
        for payment in outcome.payments { acknowledge(payment, into: &tally) }
        for text in outcome.violations { violation("round \(round): \(text)") }
        tally.replays += outcome.replays
        tally.loadErrors += outcome.loadErrors
        if tally.firstLoadError == nil { tally.firstLoadError = outcome.firstLoadError }
    }

    private mutating func acknowledge(_ booking: AcknowledgedBooking, into tally: inout RoundTally) {
        if let earlier = referenceByKey[booking.key], earlier != booking.reference {
            violation(
                "Idempotency-Key \(booking.key) made two bookings: \(earlier) and \(booking.reference)")
        }
        referenceByKey[booking.key] = booking.reference
        guard bookings[booking.reference] == nil else { return }
        bookings[booking.reference] = booking
        bookingOrder.append(booking.reference)
        tally.bookings += 1
    }

    private mutating func acknowledge(_ payment: AcknowledgedPayment, into tally: inout RoundTally) {
        guard payments[payment.reference] == nil else { return }
        payments[payment.reference] = payment
        tally.payments += 1
    }

    /// What the clients were told, for the database audit.
    var claims: [ClaimedOrder] {
        bookingOrder.compactMap { reference in
            bookings[reference].map { booking in
                ClaimedOrder(
                    vertical: "rides", lookup: .reference(reference),
                    label: "ride \(reference) of round \(booking.round)",
                    paid: payments[reference] != nil, cancelled: false, revisit: payments[reference]?.returnPath)
            }
        }
    }

    /// Sends a request that was in flight at the kill again, as the client would.
    mutating func retry(
        _ pending: PendingRequest, round: Int, fixture: DrillFixture, on connection: HTTPConnection,
        into tally: inout RoundTally
    ) async throws {
        tally.retried += 1
        switch pending {
        case .book(let key, let body, let customer, let known):
            let token = fixture.customers[customer].token
            var answered = known
            // Twice: the second must repeat the first (or both be in progress).
            for _ in 0..<2 {
                let response = try await connection.send(LoadRequest.book(body, token: token, idempotencyKey: key))
                if response.status == 409, response.errorCode == "request_in_progress" {
                    tally.inProgress += 1
                    return
                }
                guard response.status == 200, let booking = try? response.decode(BookingResponse.self),
                    let reference = booking.quoteReference,
                    let checkoutPath = booking.checkoutUrl.flatMap(LoadRequest.path(of:))
                else {
                    violation(
                        "round \(round): the retry of Idempotency-Key \(key) after the restart answered \(response.summary), not the booking or 409 request_in_progress"
                    )
                    return
                }
                if let answered, answered != reference {
                    violation(
                        "round \(round): Idempotency-Key \(key) answered \(answered), then \(reference) after the restart"
                    )
                }
                answered = reference
                acknowledge(
                    AcknowledgedBooking(
                        reference: reference, customer: customer, key: key, checkoutPath: checkoutPath, round: round),
                    into: &tally)
            }
        case .pay(let reference, let checkoutPath, let customer):
            let response = try await connection.send(LoadRequest.payInSandbox(checkoutPath))
            guard response.status == 303, let location = response.headers.first(name: "Location"),
                let returnPath = LoadRequest.path(of: location)
            else {
                violation(
                    "round \(round): \(reference): paying its checkout again after the restart answered \(response.summary)"
                )
                return
            }
            acknowledge(
                AcknowledgedPayment(reference: reference, customer: customer, returnPath: returnPath, round: round),
                into: &tally)
        }
    }

    /// Checks every booking and payment acknowledged so far: the ones new since the last check
    /// one by one (`GET /rides/bookings/{ref}` and their checkout), all of them through their
    /// owners' booking lists; then the confirmations of every confirmed booking so far.
    mutating func verify(round: Int, fixture: DrillFixture, port: Int, parallel: Int) async throws {
        // (a) and the payment record, for the bookings acknowledged since the last check.
        let new = bookingOrder.filter { !verifiedBookings.contains($0) }.compactMap { bookings[$0] }
        for result in try await Self.checkOneByOne(new, fixture: fixture, port: port, parallel: parallel) {
            verifiedBookings.insert(result.reference)
            if let status = result.status { statuses[result.reference] = status }
            for problem in result.problems { violation(problem) }
        }

        try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
            // (a) again for every booking so far, an earlier round's too: each is in its owner's list.
            var listed: [String: BookingSummary] = [:]
            for customer in fixture.customers {
                var offset: Int? = 0
                while let from = offset {
                    let page = try await connection.send(
                        .get("/rides/bookings?limit=100&offset=\(from)", token: customer.token))
                    try page.expect(200, "GET /rides/bookings")
                    let list = try page.decode(BookingListResponse.self)
                    for booking in list.bookings { listed[booking.reference] = booking }
                    offset = list.nextOffset
                }
            }
            for reference in bookingOrder {
                guard let booking = bookings[reference] else { continue }
                guard let summary = listed[reference] else {
                    violation(
                        "\(reference) (round \(booking.round)) was answered 200 but is missing from its owner's GET /rides/bookings"
                    )
                    continue
                }
                statuses[reference] = summary.status
            }

            // (b) every payment answered as paid ends confirmed or refunded.
            let clock = ContinuousClock()
            let deadline = clock.now + settleTimeout
            for reference in payments.keys.sorted() {
                guard let payment = payments[reference] else { continue }
                var status = statuses[reference]
                while status != "confirmed" && status != "refunded" && clock.now < deadline {
                    // The return page asks the provider and applies what it says.
                    _ = try await connection.send(.get(payment.returnPath))
                    let token = fixture.customers[payment.customer].token
                    let detail = try await connection.send(.get("/rides/bookings/\(reference)", token: token))
                    status =
                        (try? detail.decode(BookingDetailResponse.self))?.booking.status ?? "HTTP \(detail.status)"
                    if status != "confirmed" && status != "refunded" { try await Task.sleep(for: .milliseconds(200)) }
                }
                statuses[reference] = status
                if status != "confirmed" && status != "refunded" {
                    violation(
                        "\(reference) (round \(payment.round)): the sandbox checkout answered 303 for outcome=paid, but the booking is \(status ?? "missing")"
                    )
                }
            }

            try await checkConfirmations(fixture: fixture, on: connection)
        }
    }

    struct BookingCheck: Sendable {
        let reference: String
        let status: String?
        let problems: [String]
    }

    /// `GET /rides/bookings/{ref}` with the owner's token and the sandbox checkout the booking
    /// was answered with, on `parallel` connections.
    static func checkOneByOne(_ bookings: [AcknowledgedBooking], fixture: DrillFixture, port: Int, parallel: Int)
        async throws -> [BookingCheck]
    {
        let lanes = max(1, min(parallel, bookings.count))
        return try await withThrowingTaskGroup(of: [BookingCheck].self) { group in
            for lane in 0..<lanes {
                let share = stride(from: lane, to: bookings.count, by: lanes).map { bookings[$0] }
                group.addTask {
                    try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
                        var checks: [BookingCheck] = []
                        for booking in share {
                            checks.append(try await check(booking, fixture: fixture, on: connection))
                        }
                        return checks
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    private static func check(_ booking: AcknowledgedBooking, fixture: DrillFixture, on connection: HTTPConnection)
        async throws -> BookingCheck
    {
        let reference = booking.reference
        let token = fixture.customers[booking.customer].token
        let detail = try await connection.send(.get("/rides/bookings/\(reference)", token: token))
        guard detail.status == 200, let summary = try? detail.decode(BookingDetailResponse.self).booking else {
            return BookingCheck(
                reference: reference, status: nil,
                problems: [
                    "\(reference) (round \(booking.round)) was answered 200 but after the restart GET /rides/bookings/\(reference) answered \(detail.summary)"
                ])
        }
        var problems: [String] = []
        let checkout = try await connection.send(.get(booking.checkoutPath))
        if checkout.status != 200 {
            problems.append(
                "\(reference) (round \(booking.round)) exists without its payment: \(booking.checkoutPath) answers \(checkout.status)"
            )
        }
        if summary.status == "awaiting_payment",
            summary.checkoutUrl.flatMap(LoadRequest.path(of:)) != booking.checkoutPath
        {
            problems.append(
                "\(reference) (round \(booking.round)) awaits payment but shows checkout \(summary.checkoutUrl ?? "none"), not \(booking.checkoutPath)"
            )
        }
        return BookingCheck(reference: reference, status: summary.status, problems: problems)
    }

    /// Every confirmed booking so far has exactly one confirmation in the dev outbox, and no
    /// other booking has one.
    private mutating func checkConfirmations(fixture: DrillFixture, on connection: HTTPConnection) async throws {
        let confirmed = Set(statuses.filter { $0.value == "confirmed" }.keys)
        let clock = ContinuousClock()
        let deadline = clock.now + settleTimeout
        var counts: [String: Int] = [:]
        while true {
            counts = [:]
            for (index, customer) in fixture.customers.enumerated() {
                let response = try await connection.send(.get("/dev/outbox?to=\(customer.recipient.queryEscaped)"))
                try response.expect(200, "dev outbox")
                let listing = try JSONSerialization.jsonObject(with: response.data) as? [String: Any]
                for message in listing?["messages"] as? [[String: Any]] ?? [] {
                    if let reference = Self.confirmedReference(in: message, customer: customer),
                        bookings[reference]?.customer == index
                    {
                        counts[reference, default: 0] += 1
                    }
                }
            }
            if confirmed.allSatisfy({ counts[$0, default: 0] >= 1 }) || clock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(250))
        }
        confirmationsChecked = confirmed.count
        for reference in confirmed.sorted() {
            let count = counts[reference, default: 0]
            let recipient = bookings[reference].map { fixture.customers[$0.customer].recipient } ?? "?"
            if count == 0 {
                violation("\(reference) is confirmed but no confirmation reached \(recipient) within \(settleTimeout)")
            } else if count > 1 {
                violation("\(reference) is confirmed and \(recipient) got \(count) confirmations, not one")
            }
        }
        for (reference, count) in counts.sorted(by: { $0.key < $1.key }) where !confirmed.contains(reference) {
            violation(
                "\(reference) got \(count) confirmation(s) but is \(statuses[reference] ?? "not verified yet")")
        }
    }

    /// The booking a dev outbox message confirms, if it is a confirmation.
    static func confirmedReference(in message: [String: Any], customer: DrillFixture.Customer) -> String? {
        let channel = message["channel"] as? String
        if customer.email != nil {
            guard channel == "email", let subject = message["subject"] as? String,
                subject.hasPrefix("Your ride "), subject.hasSuffix(" is confirmed")
            else { return nil }
            return String(subject.dropFirst("Your ride ".count).dropLast(" is confirmed".count))
        }
        guard channel == "sms", let body = message["body"] as? String, body.hasPrefix("Concierge: ride ") else {
            return nil
        }
        let rest = body.dropFirst("Concierge: ride ".count)
        guard let space = rest.firstIndex(of: " "), rest[space...].hasPrefix(" confirmed") else { return nil }
        return String(rest[..<space])
    }
}
