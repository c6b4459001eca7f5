import ConciergeBenchmarks
import ConciergeTestSupport
import Foundation
import Testing

/// kill -9 during a booking and payment load, restart on the same database, and check that
/// nothing a client was told is lost: every booking answered 200 exists with its payment, every
/// payment the sandbox answered as paid ends confirmed or refunded, and every confirmed booking
/// got exactly one confirmation. Seat buyers run beside them: no seat is sold twice, every seat
/// order answered as paid is confirmed with its seats sold on the seat map, and (on SQLite, where
/// round 1 leaves holds unpaid) every lapsed hold is released. Four stays guests reserve prepaid
/// and pay-at-hotel rooms, pay, cancel, and pay and cancel at once. At the end the database is
/// audited per vertical: no unit sold beyond capacity, every acknowledged order there with its
/// payment, every paid one confirmed or refunded (less the fee), no refund owed left unpaid, the
/// platform's order status the vertical's own. Runs the real `concierge` binary `swift test`
/// builds.
/// `concierge reliability crash` runs the same drill for longer.
@Suite(.serialized) struct CrashRecoveryTests {
    @Test(arguments: TestEngine.all)
    func killingTheServerMidLoadLosesNothingItAcknowledged(engine: TestEngine) async throws {
        let location = try await engine.makeDatabaseLocation()
        defer {
            if engine == .sqlite {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: location + suffix) }
            }
        }
        var drill = CrashDrill()
        drill.database = CrashDrill.Database(location: location)
        drill.executable = try Self.serverBinary()
        drill.rounds = 3
        drill.connections = 8
        drill.seed = 20_260_101
        drill.serverLogLevel = "notice"
        drill.seatBuyers = 6
        // Holds last a minute at least and the drill waits for the last unpaid one to lapse: one
        // engine with unpaid holds in its first round keeps the wait to about half a minute.
        drill.unpaidHoldRounds = engine == .sqlite ? 1 : 0
        drill.staysBuyers = 4

        let report = try await drill.run()
        print(report.table)

        #expect(report.violations.isEmpty, "\(report.violations.joined(separator: "\n"))")
        #expect(report.rounds == 3)
        for round in report.perRound {
            #expect(round.bookingsAcknowledged > 0, "round \(round.round) acknowledged no booking")
            #expect(round.paymentsAcknowledged > 0, "round \(round.round) acknowledged no payment")
        }
        #expect(report.confirmationsChecked > 0)
        for round in report.perRound {
            #expect(round.seatOrdersPaid > 0, "round \(round.round) paid no seat order")
        }
        let seats = try #require(report.seats)
        #expect(seats.seatsSold > 0)
        #expect(seats.seatsSoldTwice == 0)
        #expect(seats.lapsesChecked)
        if engine == .sqlite {
            #expect(seats.holdsLeftUnpaid > 0)
            #expect(seats.lapsedHoldsReleased == seats.holdsLeftUnpaid)
        }

        let stays = try #require(report.stays)
        #expect(stays.reserved > 0)
        #expect(stays.paid > 0)
        #expect(stays.cancelled > 0)
        for round in report.perRound {
            #expect(round.staysPaid > 0, "round \(round.round) paid no stay")
        }
        // The database audit ran, per vertical, and found nothing.
        #expect(report.verticals.map(\.name) == ["rides", "events", "stays"])
        for vertical in report.verticals {
            #expect(vertical.violations == 0, "\(vertical.name): \(vertical.violations) violations")
            #expect(vertical.ordersAcknowledged > 0, "\(vertical.name): nothing acknowledged")
            #expect(vertical.refundsOwedUnpaid == 0)
        }
        let audited = try #require(report.verticals.first { $0.name == "stays" })
        #expect(audited.paymentsAcknowledged > 0 && audited.confirmed > 0 && audited.unitsChecked > 0)
        // Paid, then cancelled within the free cancellation time: all but the first night back.
        #expect(audited.keptAFee > 0)
    }

    /// The `concierge` executable next to the running test binary (where `swift test` puts
    /// both), or `CONCIERGE_BIN`.
    static func serverBinary() throws -> String {
        var candidates: [String] = []
        #if os(Linux)
            if let test = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                candidates.append(
                    URL(fileURLWithPath: test).deletingLastPathComponent().appendingPathComponent("concierge").path)
            }
        #else
            // Elsewhere the tests run inside an .xctest bundle in the products directory.
            candidates.append(
                Bundle(for: BundleLocator.self).bundleURL.deletingLastPathComponent().appendingPathComponent(
                    "concierge"
                )
                .path)
        #endif
        if let override = ProcessInfo.processInfo.environment["CONCIERGE_BIN"], !override.isEmpty {
            candidates.append(override)
        }
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw BinaryNotFound(
            description:
                "no concierge executable at \(candidates.joined(separator: " or ")); build it first (swift build --build-tests) or set CONCIERGE_BIN"
        )
    }

    struct BinaryNotFound: Error, CustomStringConvertible {
        let description: String
    }
}

#if !os(Linux)
    private final class BundleLocator {}
#endif
