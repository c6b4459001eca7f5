import ConciergeModels
import Foundation

/// Set just before the kill, so a client can tell the crash from an unexpected failure.
final class CrashSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var fired = false

    var happened: Bool { lock.withLock { fired } }
    func fire() { lock.withLock { fired = true } }
}

/// How many payments the round's clients have had acknowledged so far: the kill waits for the
/// first, so that every round has a payment in its checks even when the machine is slow.
final class PaymentCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}

struct AcknowledgedBooking: Sendable {
    let reference: String
    let customer: Int
    let key: String
    let checkoutPath: String
    let round: Int
}

struct AcknowledgedPayment: Sendable {
    let reference: String
    let customer: Int
    /// The return page the 303 sent the browser to (`/rides/booking-confirmed?ref=…&t=…`).
    let returnPath: String
    let round: Int
}

/// A request that got no answer because the server died.
enum PendingRequest: Sendable {
    case book(key: String, body: String, customer: Int, knownReference: String?)
    case pay(reference: String, checkoutPath: String, customer: Int)
}

/// What one client saw in one round.
struct ClientOutcome: Sendable {
    var bookings: [AcknowledgedBooking] = []
    var payments: [AcknowledgedPayment] = []
    var violations: [String] = []
    var replays = 0
    var loadErrors = 0
    var firstLoadError: String?
    var pending: PendingRequest?

    mutating func loadError(_ what: String) {
        loadErrors += 1
        if firstLoadError == nil { firstLoadError = what }
    }
}

/// The load of one round: `connections` clients until the server dies.
struct DrillLoad: Sendable {
    let port: Int
    let fixture: DrillFixture
    let round: Int
    let replayEvery: Int
    let replaySalt: Int
    let signal: CrashSignal
    let paymentsAcknowledged: PaymentCount

    func run(connections: Int) async -> [ClientOutcome] {
        await withTaskGroup(of: ClientOutcome.self) { group in
            for client in 0..<connections {
                group.addTask { await self.client(client) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    private func client(_ client: Int) async -> ClientOutcome {
        var outcome = ClientOutcome()
        let customerIndex = client % fixture.customers.count
        let token = fixture.customers[customerIndex].token
        var iteration = 0
        while !signal.happened {
            do {
                try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
                    // A booking that failed without a crash is sent again first, with its key, as a
                    // client would after a connection error; the drill checks that one key never
                    // names two bookings.
                    if case .book(let key, let body, _, _) = outcome.pending {
                        let again = try await connection.send(LoadRequest.book(body, token: token, idempotencyKey: key))
                        outcome.pending = nil
                        if again.status == 200, let (reference, checkoutPath) = Self.acknowledged(again) {
                            outcome.bookings.append(
                                AcknowledgedBooking(
                                    reference: reference, customer: customerIndex, key: key,
                                    checkoutPath: checkoutPath, round: round))
                        }
                    }
                    outcome.pending = nil
                    while !signal.happened {
                        iteration += 1
                        try await once(
                            connection, client: client, customer: customerIndex, token: token, iteration: iteration,
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
        _ connection: HTTPConnection, client: Int, customer: Int, token: String, iteration: Int,
        outcome: inout ClientOutcome
    ) async throws {
        let key = "crash-r\(round)-c\(client)-\(iteration)-\(UUID().uuidString.prefix(8))"
        let body = fixture.trips.bookingBody(round * 100_003 + client * 7919 + iteration)
        outcome.pending = .book(key: key, body: body, customer: customer, knownReference: nil)
        let booked = try await connection.send(LoadRequest.book(body, token: token, idempotencyKey: key))
        outcome.pending = nil
        guard booked.status == 200 else {
            outcome.loadError("app-book: \(booked.summary)")
            return
        }
        guard let (reference, checkoutPath) = Self.acknowledged(booked) else {
            outcome.violations.append("app-book answered 200 without a reference or checkout: \(booked.summary)")
            return
        }
        outcome.bookings.append(
            AcknowledgedBooking(
                reference: reference, customer: customer, key: key, checkoutPath: checkoutPath, round: round))

        if replayEvery > 0, (iteration + replaySalt).isMultiple(of: replayEvery) {
            // The same request again, as a client whose answer was lost: the same booking back.
            outcome.pending = .book(key: key, body: body, customer: customer, knownReference: reference)
            let again = try await connection.send(LoadRequest.book(body, token: token, idempotencyKey: key))
            outcome.pending = nil
            outcome.replays += 1
            let replayed = again.status == 200 ? (try? again.decode(BookingResponse.self))?.quoteReference : nil
            if replayed != reference {
                outcome.violations.append(
                    "Idempotency-Key \(key) answered \(reference), then \(again.summary) on a replay")
            }
        }

        outcome.pending = .pay(reference: reference, checkoutPath: checkoutPath, customer: customer)
        let paid = try await connection.send(LoadRequest.payInSandbox(checkoutPath))
        outcome.pending = nil
        guard paid.status == 303, let location = paid.headers.first(name: "Location"),
            let returnPath = LoadRequest.path(of: location)
        else {
            outcome.loadError("sandbox checkout \(reference): \(paid.summary)")
            return
        }
        outcome.payments.append(
            AcknowledgedPayment(reference: reference, customer: customer, returnPath: returnPath, round: round))
        paymentsAcknowledged.add()
    }

    /// The reference and checkout path of a booking answered 200.
    private static func acknowledged(_ response: LoadResponse) -> (reference: String, checkoutPath: String)? {
        guard let booking = try? response.decode(BookingResponse.self), let reference = booking.quoteReference,
            let checkoutPath = booking.checkoutUrl.flatMap(LoadRequest.path(of:))
        else { return nil }
        return (reference, checkoutPath)
    }
}
