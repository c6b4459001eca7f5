import Foundation

struct StaysRoundTally {
    var reserved = 0
    var paid = 0
    var cancelled = 0
    var soldOut = 0
    var retried = 0
    var loadErrors = 0
    var firstLoadError: String?
}

/// Every reservation the stays guests were answered so far, and what the drill's requests after
/// the restarts found wrong. The database audit (`DrillDatabaseAudit`) judges the rest.
struct StaysDrillState {
    /// By reservation id, in the order acknowledged.
    private(set) var reservations: [Int: AcknowledgedStay] = [:]
    private(set) var reservationOrder: [Int] = []
    private(set) var paid: [Int: PaidStay] = [:]
    private(set) var cancelled: Set<Int> = []
    private var idByKey: [String: Int] = [:]
    private(set) var violations: [String] = []
    private var reported: Set<String> = []

    mutating func violation(_ text: String) {
        if reported.insert(text).inserted { violations.append(text) }
    }

    mutating func absorb(_ outcome: StaysBuyerOutcome, round: Int, into tally: inout StaysRoundTally) {
        for stay in outcome.reservations { acknowledge(stay, into: &tally) }
        for stay in outcome.paid { acknowledgePaid(stay, into: &tally) }
        for stay in outcome.cancelled { acknowledgeCancelled(stay, into: &tally) }
        for text in outcome.violations { violation("round \(round): \(text)") }
        tally.soldOut += outcome.soldOut
        tally.loadErrors += outcome.loadErrors
        if tally.firstLoadError == nil { tally.firstLoadError = outcome.firstLoadError }
    }

    private mutating func acknowledge(_ stay: AcknowledgedStay, into tally: inout StaysRoundTally) {
        if let earlier = idByKey[stay.key], earlier != stay.id {
            violation("stays Idempotency-Key \(stay.key) made two reservations: \(earlier) and \(stay.id)")
        }
        idByKey[stay.key] = stay.id
        guard reservations[stay.id] == nil else { return }
        reservations[stay.id] = stay
        reservationOrder.append(stay.id)
        tally.reserved += 1
    }

    private mutating func acknowledgePaid(_ stay: PaidStay, into tally: inout StaysRoundTally) {
        guard paid[stay.stay.id] == nil else { return }
        paid[stay.stay.id] = stay
        tally.paid += 1
    }

    private mutating func acknowledgeCancelled(_ stay: AcknowledgedStay, into tally: inout StaysRoundTally) {
        if cancelled.insert(stay.id).inserted { tally.cancelled += 1 }
    }

    /// Sends the request that was in flight at the kill again, as the guest would: a
    /// reservation with its key (twice: the second must repeat the first), which is then paid;
    /// a payment (303 again, whatever happened before the kill), with its cancellation when one
    /// was racing it; a cancellation (done now, or done already).
    mutating func retry(
        _ pending: PendingStayRequest, round: Int, fixture: StaysDrillFixture, on connection: HTTPConnection,
        into tally: inout StaysRoundTally
    ) async throws {
        tally.retried += 1
        switch pending {
        case .reserve(let key, let body, let guest, _):
            let token = fixture.guests[guest].token
            var made: AcknowledgedStay?
            for _ in 0..<2 {
                let response = try await connection.send(.reserveStay(body, token: token, idempotencyKey: key))
                if response.status == 409, response.staysErrorType == "sold_out", made == nil {
                    // The first request never committed and the nights went to someone else.
                    return
                }
                guard let stay = StaysDrillLoad.acknowledged(response, guest: guest, key: key, round: round) else {
                    violation(
                        "round \(round): the retry of stays Idempotency-Key \(key) after the restart answered \(response.summary)"
                    )
                    return
                }
                if let made, made.id != stay.id {
                    violation(
                        "round \(round): stays Idempotency-Key \(key) answered reservation \(made.id), then \(stay.id) after the restart"
                    )
                }
                made = stay
                acknowledge(stay, into: &tally)
            }
            if let made, made.checkoutPath != nil {
                try await retry(
                    .pay(made, thenCancel: false), round: round, fixture: fixture, on: connection, into: &tally)
            }
        case .pay(let stay, let thenCancel):
            guard let checkoutPath = stay.checkoutPath else { return }
            let response = try await connection.send(.payInSandbox(checkoutPath))
            if let paidStay = StaysDrillLoad.paid(stay, response) {
                acknowledgePaid(paidStay, into: &tally)
            } else if !thenCancel {
                // Raced by a cancellation, the checkout may refuse; on its own it must take the payment.
                violation(
                    "round \(round): \(stay.label): paying its checkout again after the restart answered \(response.summary)"
                )
            }
            if thenCancel {
                try await retry(.cancel(stay), round: round, fixture: fixture, on: connection, into: &tally)
            }
        case .cancel(let stay):
            let response = try await connection.send(.cancelStay(stay.id, token: fixture.guests[stay.guest].token))
            if response.status == 200 || response.staysErrorType == "already_cancelled" {
                acknowledgeCancelled(stay, into: &tally)
            } else if response.staysErrorType != "not_cancellable" {
                violation(
                    "round \(round): \(stay.label): cancelling it again after the restart answered \(response.summary)")
            }
        }
    }

    /// What the guests were told, for the database audit.
    var claims: [ClaimedOrder] {
        reservationOrder.compactMap { id in
            guard let stay = reservations[id] else { return nil }
            return ClaimedOrder(
                vertical: "stays", lookup: stay.reference.map { .reference($0) } ?? .staysReservation(id),
                label: stay.label, paid: paid[id] != nil, cancelled: cancelled.contains(id),
                revisit: paid[id]?.returnPath)
        }
    }
}
