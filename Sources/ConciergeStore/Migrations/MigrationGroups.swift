/// Every module's migrations, in the order they apply: the pre-module history, the platform's
/// shared tables, then one line per vertical.
public enum MigrationGroups {
    public static let all: [MigrationGroup] = [.core, .accounts, .holds, .orders, .outbox]
}
