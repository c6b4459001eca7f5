import Testing

@testable import ConciergeStore

/// Every migration of the release follows expand/contract (docs/operators/upgrades.md): the
/// previous release keeps serving while it applies. A migration that breaks the rule fails here
/// until it is named, with its reason, in `MigrationLint.exceptions`.
@Suite struct MigrationLintTests {
    @Test func everyMigrationOfTheReleaseOnlyExpandsOrIsANamedException() {
        let violations = MigrationLint.violations(in: MigrationGroups.all)
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
    }

    @Test func everyExceptionNamesAMigrationThatBreaksTheRuleAndSaysWhy() {
        let migrations = MigrationGroups.all.flatMap { group in group.migrations.map { (group.module, $0) } }
        for exception in MigrationLint.exceptions {
            #expect(!exception.reason.isEmpty)
            guard let named = migrations.first(where: { $0.0 == exception.module && $0.1.version == exception.version })
            else {
                Issue.record("no migration \(exception.module)/\(exception.version)")
                continue
            }
            #expect(
                !MigrationLint.findings(in: named.1, module: exception.module).isEmpty,
                "\(exception.module)/\(exception.version) follows the rule: drop its exception")
        }
    }

    @Test func aNewMigrationThatDropsAColumnFailsTheLint() {
        let release = MigrationGroups.all.map { group in
            group.module != "commute"
                ? group
                : MigrationGroup(
                    module: group.module,
                    migrations: group.migrations + [
                        Migration(
                            version: group.latestVersion + 1, name: "bad",
                            statements: [.portable("ALTER TABLE commute_devices DROP COLUMN deactivation_reason")])
                    ])
        }
        #expect(
            MigrationLint.violations(in: release).map(\.rule) == [.dropsColumn])
    }

    /// Each rule on a statement that breaks it.
    @Test(arguments: [
        ("DROP TABLE bookings", MigrationLint.Rule.dropsTable),
        ("DROP TABLE IF EXISTS bookings", .dropsTable),
        ("ALTER TABLE bookings DROP COLUMN driver_plate", .dropsColumn),
        ("alter table bookings drop driver_plate", .dropsColumn),
        ("ALTER TABLE bookings RENAME TO rides_bookings", .renames),
        ("ALTER TABLE bookings RENAME COLUMN driver_plate TO plate", .renames),
        ("ALTER TABLE bookings ADD COLUMN seats BIGINT NOT NULL", .addsRequiredColumn),
        ("ALTER TABLE bookings ADD seats BIGINT\n    NOT NULL", .addsRequiredColumn),
        ("ALTER TABLE bookings ALTER COLUMN flight_number SET NOT NULL", .tightensColumn),
        ("ALTER TABLE bookings ALTER COLUMN passengers TYPE INTEGER", .changesColumnType),
        ("ALTER TABLE bookings ALTER COLUMN passengers SET DATA TYPE INTEGER", .changesColumnType),
        ("ALTER TABLE bookings ADD CONSTRAINT few CHECK (passengers < 9)", .addsConstraint),
        ("CREATE TABLE bookings_new (id TEXT PRIMARY KEY)", .rebuildsTable),
        ("CREATE TABLE bookings_v2 (id TEXT PRIMARY KEY)", .rebuildsTable),
        ("UPDATE bookings SET currency = 'EUR'", .rewritesEveryRow),
        ("UPDATE bookings SET price_cents = (SELECT 1 FROM orders WHERE orders.id = bookings.id)", .rewritesEveryRow),
    ])
    func aStatementThatBreaksTheRuleIsFound(sql: String, rule: MigrationLint.Rule) {
        let migration = Migration(version: 99, name: "bad", statements: [.portable(sql)])
        #expect(MigrationLint.findings(in: migration, module: "rides").map(\.rule) == [rule])
        #expect(!MigrationLint.isExpandOnly(migration, module: "rides"))
    }

    @Test func aRuleBrokenInOneDialectOnlyIsFound() {
        let migration = Migration(
            version: 99, name: "bad",
            statements: [.perDialect(sqlite: "SELECT 1", postgres: "ALTER TABLE bookings DROP COLUMN driver_plate")])
        #expect(MigrationLint.findings(in: migration, module: "rides").map(\.rule) == [.dropsColumn])
    }

    /// What the previous release can ignore passes.
    @Test(arguments: [
        "CREATE TABLE loyalty_points (account_id TEXT NOT NULL, points BIGINT NOT NULL)",
        "CREATE INDEX bookings_by_currency ON bookings (currency)",
        "ALTER TABLE bookings ADD COLUMN seats BIGINT",
        "ALTER TABLE bookings ADD COLUMN status TEXT NOT NULL DEFAULT 'open'",
        "ALTER TABLE bookings ALTER COLUMN flight_number DROP NOT NULL",
        "UPDATE bookings SET currency = 'EUR' WHERE currency IS NULL",
        "INSERT INTO settings (key, value) VALUES ('a', 'b')",
    ])
    func anExpandingStatementPasses(sql: String) {
        let migration = Migration(version: 99, name: "good", statements: [.portable(sql)])
        #expect(MigrationLint.findings(in: migration, module: "rides").isEmpty)
    }

    @Test func aTableTheMigrationCreatesMayBeFilledAndAltered() {
        let migration = Migration(
            version: 99, name: "good",
            statements: [
                .portable("CREATE TABLE loyalty_points (account_id TEXT NOT NULL)"),
                .portable("ALTER TABLE loyalty_points ADD COLUMN points BIGINT NOT NULL"),
                .portable("UPDATE loyalty_points SET account_id = 'x'"),
            ])
        #expect(MigrationLint.findings(in: migration, module: "rides").isEmpty)
    }
}
