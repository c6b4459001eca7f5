import ConciergeModels
import Foundation

/// The backup drill's clients: each books a ride (`POST /rides/app-book`) and pays for it in the
/// sandbox, again and again until stopped, noting every acknowledgement as it comes. The drill
/// reads the notes at the moment its backup begins: whatever is noted then was acknowledged
/// before.
final class BackupDrillLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var booked: [String] = []
    private var paid: [String] = []
    private var errors = 0
    private var firstError: String?
    private var stopped = false

    var isStopped: Bool { lock.withLock { stopped } }
    func stop() { lock.withLock { stopped = true } }
    var bookings: Int { lock.withLock { booked.count } }

    /// The references booked and paid so far.
    func acknowledged() -> (booked: [String], paid: [String]) { lock.withLock { (booked, paid) } }
    var loadErrors: (count: Int, first: String?) { lock.withLock { (errors, firstError) } }

    func book(_ reference: String) { lock.withLock { booked.append(reference) } }
    func pay(_ reference: String) { lock.withLock { paid.append(reference) } }
    func error(_ what: String) {
        lock.withLock {
            errors += 1
            if firstError == nil { firstError = what }
        }
    }
}

struct BackupDrillLoad: Sendable {
    let port: Int
    let fixture: DrillFixture
    let ledger: BackupDrillLedger

    func run(connections: Int) async {
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<connections {
                group.addTask { await self.client(client) }
            }
        }
    }

    private func client(_ client: Int) async {
        let token = fixture.customers[client % fixture.customers.count].token
        var iteration = 0
        while !ledger.isStopped {
            do {
                try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
                    while !ledger.isStopped {
                        iteration += 1
                        let body = fixture.trips.bookingBody(client * 7919 + iteration)
                        let booked = try await connection.send(LoadRequest.book(body, token: token))
                        guard booked.status == 200, let booking = try? booked.decode(BookingResponse.self),
                            let reference = booking.quoteReference,
                            let checkout = booking.checkoutUrl.flatMap(LoadRequest.path(of:))
                        else {
                            ledger.error("app-book: \(booked.summary)")
                            continue
                        }
                        ledger.book(reference)
                        let paid = try await connection.send(LoadRequest.payInSandbox(checkout))
                        guard paid.status == 303 else {
                            ledger.error("sandbox checkout \(reference): \(paid.summary)")
                            continue
                        }
                        ledger.pay(reference)
                    }
                }
            } catch {
                ledger.error("\(error)")
            }
        }
    }
}
