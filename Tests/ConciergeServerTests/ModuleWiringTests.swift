import ConciergeStore
import Testing

@testable import ConciergeServer

@Suite struct ModuleWiringTests {
    /// Store suites migrate with `MigrationGroups.all`; the server with the platform's groups and
    /// its modules'. They must be the same schema.
    @Test func storeSuitesMigrateTheSchemaTheServerRuns() {
        let server = MigrationGroups.platform + VerticalModules.all.compactMap(\.migrations)
        #expect(server.map(\.module) == MigrationGroups.all.map(\.module))
    }

    @Test func everyModuleHasItsOwnPrefixAndTheRidesErrorBody() throws {
        let names = VerticalModules.all.map(\.name)
        #expect(Set(names).count == names.count)
        let renderers = ErrorRenderers(
            byPrefix: Dictionary(uniqueKeysWithValues: VerticalModules.all.map { ($0.name, $0.errorRenderer) }))
        let body = try renderers.renderer(for: "/rides/nowhere").body(
            for: ErrorDescription(status: .notFound, code: "not_found", message: "No."))
        #expect(String(decoding: body, as: UTF8.self) == #"{"code":"not_found","error":"No.","success":false}"#)
    }

    @Test func everyVariableBelongsToExactlyOneModule() {
        let names = ConfigurationVariable.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(ConfigurationVariable.rides.allSatisfy { names.contains($0.name) })
    }
}
