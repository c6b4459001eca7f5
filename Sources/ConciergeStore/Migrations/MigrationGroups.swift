/// Every module's migrations, in the order they apply: the pre-module history, the platform's
/// shared tables, then the verticals'. The server derives its list from its modules
/// (`platform` + each module's group); a test holds `all` equal to it, so store suites migrate
/// exactly the schema the server runs on.
public enum MigrationGroups {
    /// The history before modules and the platform's shared tables.
    public static let platform: [MigrationGroup] = [.core, .accounts, .holds, .orders, .outbox, .operators]
    /// The platform's groups followed by every vertical's.
    public static let all: [MigrationGroup] = platform + [.stays, .events, .commute]
}
