import ConciergeModels
import Foundation
import NIOHTTP1

/// A reservation the server made (`POST /stays/appointment` answered 201).
struct AcknowledgedStay: Sendable {
    let id: Int
    let guest: Int
    let key: String
    /// Paid in advance: it has a platform order (`reference`) and a sandbox checkout.
    let prepaid: Bool
    /// The platform order's reference (`STY-…`), nil when paid at the hotel.
    let reference: String?
    let checkoutPath: String?
    let round: Int

    var label: String { "stay \(id)" + (reference.map { " (\($0))" } ?? " (pay at hotel)") + " of round \(round)" }
}

/// A prepaid reservation the sandbox answered 303 for `outcome=paid`.
struct PaidStay: Sendable {
    let stay: AcknowledgedStay
    /// The return page the 303 sent the browser to.
    let returnPath: String
}

/// A stays request that got no answer because the server died.
enum PendingStayRequest: Sendable {
    case reserve(key: String, body: String, guest: Int, prepaid: Bool)
    /// Paying, and with `thenCancel` cancelling at the same time (or right after).
    case pay(AcknowledgedStay, thenCancel: Bool)
    case cancel(AcknowledgedStay)
}

/// What one stays guest saw in one round.
struct StaysBuyerOutcome: Sendable {
    var reservations: [AcknowledgedStay] = []
    var paid: [PaidStay] = []
    /// Reservations `DELETE /stays/appointment/{id}` answered 200 for.
    var cancelled: [AcknowledgedStay] = []
    var soldOut = 0
    var replays = 0
    var violations: [String] = []
    var loadErrors = 0
    var firstLoadError: String?
    var pending: PendingStayRequest?

    mutating func loadError(_ what: String) {
        loadErrors += 1
        if firstLoadError == nil { firstLoadError = what }
    }
}

/// The stays side of one round: each guest loops `POST /stays/appointment` (with an
/// `Idempotency-Key`, now and then sent twice) for one or two of the round's nights — four in
/// five prepaid Doubles, the rest Individuals paid at the hotel — then, for a prepaid one, at
/// random: pays and keeps it, pays and cancels it, cancels it unpaid, or pays and cancels at
/// the same time on two connections; one paid at the hotel is cancelled every other time. One
/// prepaid room in six is for a night a few days ahead, within the free cancellation time: paid,
/// then cancelled under the fee (the first night kept). A night sold out makes the guest cancel
/// the oldest reservation it kept, so rooms change hands all round.
struct StaysDrillLoad: Sendable {
    let port: Int
    let fixture: StaysDrillFixture
    let round: Int
    let seed: UInt64
    let replayEvery: Int
    let signal: CrashSignal
    /// Counts paid reservations: the kill waits for the round's first.
    let paymentsAcknowledged: PaymentCount

    func run() async -> [StaysBuyerOutcome] {
        await withTaskGroup(of: StaysBuyerOutcome.self) { group in
            for guest in fixture.guests.indices {
                group.addTask { await self.guest(guest) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    private func guest(_ guest: Int) async -> StaysBuyerOutcome {
        var outcome = StaysBuyerOutcome()
        var rng = SplitMix64(seed: seed &* 1_000_003 &+ UInt64(round) &* 7919 &+ UInt64(guest))
        var kept: [AcknowledgedStay] = []
        var iteration = 0
        while !signal.happened {
            do {
                try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
                    while !signal.happened {
                        iteration += 1
                        try await once(
                            connection, guest: guest, iteration: iteration, rng: &rng, kept: &kept,
                            outcome: &outcome)
                    }
                }
            } catch {
                if signal.happened { break }
                outcome.loadError("\(error)")
            }
        }
        return outcome
    }

    private func once(
        _ connection: HTTPConnection, guest: Int, iteration: Int, rng: inout SplitMix64, kept: inout [AcknowledgedStay],
        outcome: inout StaysBuyerOutcome
    ) async throws {
        let token = fixture.guests[guest].token
        let prepaid = rng.next() % 5 != 0
        // One prepaid room in six is for a night within the free cancellation time: paid, then
        // cancelled under the fee.
        let late = prepaid && rng.next() % 6 == 0
        let nights = late ? StaysDrillFixture.lateNights : fixture.nights(round: round)
        let first = nights.lowerBound + Int(rng.next() % UInt64(nights.count))
        let body = Self.reservationBody(
            roomType: prepaid ? StaysDrillFixture.prepaidRoomType : StaysDrillFixture.atHotelRoomType,
            firstNight: first,
            nights: 1 + Int(rng.next() % 2))
        let key = "crash-stay-r\(round)-g\(guest)-\(iteration)-\(UUID().uuidString.prefix(8))"
        outcome.pending = .reserve(key: key, body: body, guest: guest, prepaid: prepaid)
        let made = try await connection.send(.reserveStay(body, token: token, idempotencyKey: key))
        outcome.pending = nil
        if made.status == 409, made.staysErrorType == "sold_out" {
            outcome.soldOut += 1
            if !late, !kept.isEmpty {
                let oldest = kept.removeFirst()
                try await cancel(oldest, on: connection, outcome: &outcome)
            } else {
                try await Task.sleep(for: .milliseconds(20))
            }
            return
        }
        guard made.status == 201, let stay = Self.acknowledged(made, guest: guest, key: key, round: round) else {
            outcome.loadError("POST /stays/appointment: \(made.summary)")
            return
        }
        outcome.reservations.append(stay)

        if replayEvery > 0, iteration.isMultiple(of: replayEvery) {
            // The same request again, as a guest whose answer was lost: the same reservation back.
            outcome.pending = .reserve(key: key, body: body, guest: guest, prepaid: prepaid)
            let again = try await connection.send(.reserveStay(body, token: token, idempotencyKey: key))
            outcome.pending = nil
            outcome.replays += 1
            let replayed = Self.acknowledged(again, guest: guest, key: key, round: round)?.id
            if replayed != stay.id {
                outcome.violations.append(
                    "stays Idempotency-Key \(key) made reservation \(stay.id), then answered \(again.summary) on a replay"
                )
            }
        }

        if late {
            if try await pay(stay, on: connection, outcome: &outcome) {
                try await cancel(stay, on: connection, outcome: &outcome)
            }
            return
        }
        guard stay.prepaid else {
            if rng.next() % 2 == 0 {
                try await cancel(stay, on: connection, outcome: &outcome)
            } else {
                kept.append(stay)
            }
            return
        }
        switch rng.next() % 6 {
        case 0:
            try await cancel(stay, on: connection, outcome: &outcome)
        case 1:
            try await payWhileCancelling(stay, on: connection, outcome: &outcome)
        case 2, 3:
            if try await pay(stay, on: connection, outcome: &outcome) {
                try await cancel(stay, on: connection, outcome: &outcome)
            }
        default:
            if try await pay(stay, on: connection, outcome: &outcome) { kept.append(stay) }
        }
    }

    /// Pays in the sandbox checkout; true when it answered 303.
    private func pay(_ stay: AcknowledgedStay, on connection: HTTPConnection, outcome: inout StaysBuyerOutcome)
        async throws -> Bool
    {
        guard let checkoutPath = stay.checkoutPath else { return false }
        outcome.pending = .pay(stay, thenCancel: false)
        let paid = try await connection.send(.payInSandbox(checkoutPath))
        outcome.pending = nil
        guard let paidStay = Self.paid(stay, paid) else {
            outcome.loadError("sandbox checkout of \(stay.label): \(paid.summary)")
            return false
        }
        outcome.paid.append(paidStay)
        paymentsAcknowledged.add()
        return true
    }

    private func cancel(_ stay: AcknowledgedStay, on connection: HTTPConnection, outcome: inout StaysBuyerOutcome)
        async throws
    {
        outcome.pending = .cancel(stay)
        let response = try await connection.send(.cancelStay(stay.id, token: fixture.guests[stay.guest].token))
        outcome.pending = nil
        if response.status == 200 {
            outcome.cancelled.append(stay)
        } else {
            outcome.loadError("DELETE /stays/appointment/\(stay.id): \(response.summary)")
        }
    }

    /// The guest presses Pay and, in another tab, Cancel: both at once. Whichever wins, a
    /// payment the sandbox took must end confirmed or be given back.
    private func payWhileCancelling(
        _ stay: AcknowledgedStay, on connection: HTTPConnection, outcome: inout StaysBuyerOutcome
    ) async throws {
        guard let checkoutPath = stay.checkoutPath else { return }
        let token = fixture.guests[stay.guest].token
        outcome.pending = .pay(stay, thenCancel: true)
        async let cancelling: LoadResponse? = {
            try? await HTTPConnection.with(host: "127.0.0.1", port: port) { other in
                try await other.send(.cancelStay(stay.id, token: token))
            }
        }()
        let paid = try await connection.send(.payInSandbox(checkoutPath))
        let cancelled = await cancelling
        outcome.pending = nil
        if let paidStay = Self.paid(stay, paid) {
            outcome.paid.append(paidStay)
            paymentsAcknowledged.add()
        }
        if cancelled?.status == 200 {
            outcome.cancelled.append(stay)
        } else if cancelled == nil {
            // The cancellation got no answer (the server died meanwhile): sent again after the restart.
            outcome.pending = .cancel(stay)
        }
    }

    static func reservationBody(roomType: Int64, firstNight: Int, nights: Int) -> String {
        let checkIn = StaysLoadScenarios.noon(firstNight)
        let checkOut = StaysLoadScenarios.noon(firstNight + nights)
        return
            #"{"roomHotelId":\#(roomType),"checkIn":\#(checkIn),"checkOut":\#(checkOut),"guests":1,"purpose":"Crash drill"}"#
    }

    /// The reservation of a 201 (or of a replay's 200).
    static func acknowledged(_ response: LoadResponse, guest: Int, key: String, round: Int) -> AcknowledgedStay? {
        guard response.status == 201 || response.status == 200,
            let reservation = try? response.decode(Stays.APIResponse<Stays.Reservation>.self).data
        else { return nil }
        let payment = reservation.payment
        return AcknowledgedStay(
            id: reservation.id, guest: guest, key: key, prepaid: payment != nil, reference: payment?.reference,
            checkoutPath: payment?.checkoutUrl.flatMap(LoadRequest.path(of:)), round: round)
    }

    /// The paid reservation of a sandbox checkout's 303, nil for any other answer.
    static func paid(_ stay: AcknowledgedStay, _ response: LoadResponse) -> PaidStay? {
        guard response.status == 303, let location = response.headers.first(name: "Location"),
            let returnPath = LoadRequest.path(of: location)
        else { return nil }
        return PaidStay(stay: stay, returnPath: returnPath)
    }
}

extension LoadRequest {
    /// `POST /stays/appointment`, signed in, with an `Idempotency-Key`.
    static func reserveStay(_ body: String, token: String, idempotencyKey: String) -> LoadRequest {
        .postJSON("/stays/appointment", body, token: token, headers: [("Idempotency-Key", idempotencyKey)])
    }

    /// `DELETE /stays/appointment/{id}`, signed in.
    static func cancelStay(_ id: Int, token: String) -> LoadRequest {
        LoadRequest(method: .DELETE, uri: "/stays/appointment/\(id)", headers: [("Authorization", "Bearer \(token)")])
    }
}

extension LoadResponse {
    /// The `errorType` of a stays error body.
    var staysErrorType: String? {
        (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["errorType"] as? String
    }
}
