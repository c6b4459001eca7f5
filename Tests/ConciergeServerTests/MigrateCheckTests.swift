import ConciergeStore
import ConciergeTestSupport
import Testing

@testable import ConciergeServer

/// `concierge migrate --check` as the command runs it (`checkSchema`), on the configured database:
/// it reads and says, and applies nothing.
@Suite struct MigrateCheckTests {
    @Test(arguments: TestEngine.all)
    func theCheckSaysWhatMigrateWouldDoWithoutDoingIt(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine)
        let before = try await checkSchema(configuration: app.configuration, logger: TestApp.quiet)
        #expect(before.verdict == .empty)
        #expect(before.exitCode == 2)
        // Still empty: the check applied nothing.
        #expect(try await checkSchema(configuration: app.configuration, logger: TestApp.quiet).verdict == .empty)

        _ = try await migrateDatabase(configuration: app.configuration, logger: TestApp.quiet)
        let after = try await checkSchema(configuration: app.configuration, logger: TestApp.quiet)
        #expect(after.verdict == .current)
        #expect(after.exitCode == 0)
        #expect(after.report == ["ok: the schema is the one this binary knows."])
    }
}
