import ConciergeBenchmarks
import ConciergeTestSupport
import Testing

/// The backup drill, run short on both engines: bookings under load, `concierge backup` mid-load,
/// `concierge restore` into a fresh place, and every booking acknowledged before the backup began
/// in the copy with its payment record. Runs the real `concierge` binary `swift test` builds;
/// `concierge reliability backup --bookings 100000` is the same drill at size.
@Suite(.serialized) struct BackupDrillTests {
    @Test(arguments: TestEngine.all)
    func everyBookingAcknowledgedBeforeTheBackupIsInTheRestoredCopyWithItsPayment(engine: TestEngine) async throws {
        var drill = BackupDrill()
        drill.engine = engine == .sqlite ? .sqlite : .postgresql
        drill.executable = try CrashRecoveryTests.serverBinary()
        drill.bookingsBeforeBackup = 300
        drill.connections = 6

        let report = try await drill.run()
        print(report.table)

        #expect(report.violations.isEmpty, "\(report.violations.prefix(20).joined(separator: "\n"))")
        #expect(report.bookingsBeforeBackup >= 300)
        #expect(report.paymentsBeforeBackup > 0)
        #expect(report.ordersInCopy >= report.bookingsBeforeBackup)
        #expect(report.backupBytes > 0)
        // No bound on its time: on CI's loaded machine the same drill took 69–85 s against 6 s
        // alone, and a timing assertion there fails for the machine, not the code.
    }
}
