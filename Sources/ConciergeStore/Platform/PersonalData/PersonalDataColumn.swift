/// What one column of the schema holds about people, so erasure, joining, export and retention
/// can be checked against the real schema: a test reads the migrated database on both engines
/// and fails on any column this registry does not classify.
public struct PersonalDataColumn: Sendable, Hashable {
    public let table: String
    public let column: String
    public let kind: PersonalDataKind

    public init(table: String, column: String, kind: PersonalDataKind) {
        self.table = table
        self.column = column
        self.kind = kind
    }

    /// One table's columns, grouped by kind; every column of the table must appear once.
    public static func table(
        _ table: String, operational: [String] = [], account: [String] = [], personal: [String] = [],
        secret: [String] = [], retained: [String: String] = [:]
    ) -> [PersonalDataColumn] {
        operational.map { PersonalDataColumn(table: table, column: $0, kind: .operational) }
            + account.map { PersonalDataColumn(table: table, column: $0, kind: .account) }
            + personal.map { PersonalDataColumn(table: table, column: $0, kind: .personal) }
            + secret.map { PersonalDataColumn(table: table, column: $0, kind: .secret) }
            + retained.sorted { $0.key < $1.key }.map {
                PersonalDataColumn(table: table, column: $0.key, kind: .retained(why: $0.value))
            }
    }
}

/// The classes of columns (docs/privacy.md lists every column with its class).
public enum PersonalDataKind: Sendable, Hashable {
    /// About the service, not a person: ids, money, states, times, the catalogue.
    case operational
    /// Names an account. After erasure it may only name the tombstone (an `accounts` row with
    /// nothing personal left), so orders and reservations stay countable for accounting.
    case account
    /// About the person: names, contacts, places, free text, device tokens. Nothing of it is
    /// left after erasure; it is in the person's export.
    case personal
    /// Hashes and capabilities (password hashes, token hashes, secret links): never exported.
    case secret
    /// Personal, but kept after erasure for the stated reason (accounting, a ride already
    /// dispatched); swept by retention where a period applies.
    case retained(why: String)
}
