public import Foundation

/// The person's own copy (GDPR Art. 15 and 20): every module's part, read in one transaction
/// so the parts agree with each other. docs/privacy.md describes it field by field.
public struct PersonalDataExporter: Sendable {
    private let database: any SQLDatabase
    private let owners: [any AccountDataOwner]

    public init(database: any SQLDatabase, owners: [any AccountDataOwner] = AccountDataOwners.all) {
        self.database = database
        self.owners = owners
    }

    public func export(accountID: String, at date: Date) async throws -> PersonalDataExport {
        let owners = self.owners
        let modules = try await database.transaction { db in
            var modules: [String: [String: [PersonalDataRow]]] = [:]
            var addresses: Set<String> = []
            for owner in owners {
                modules[owner.module] = try await owner.export(accountID: accountID, in: db)
                addresses.formUnion(try await owner.addresses(accountID: accountID, in: db))
            }
            // The messages to any of the person's addresses, whichever module sent them.
            let binds = addresses.sorted().map(SQLValue.text)
            let toThem = "recipient IN \(PersonalDataRows.placeholders(binds.count))"
            for table in ["notification_outbox", "outbox_messages"] {
                modules["platform", default: [:]][table] = try await PersonalDataRows.select(
                    table, where: toThem, binds, in: db)
            }
            return modules
        }
        return PersonalDataExport(accountId: accountID, exportedAt: date, modules: modules)
    }
}

/// The export document: `modules` maps a module name to its tables, each a list of rows in the
/// table's own column names.
public struct PersonalDataExport: Sendable, Encodable {
    public static let format = "concierge-personal-data/1"

    public let format: String = Self.format
    public let accountId: String
    public let exportedAt: PersonalDataValue
    public let modules: [String: [String: [PersonalDataRow]]]

    init(accountId: String, exportedAt: Date, modules: [String: [String: [PersonalDataRow]]]) {
        self.accountId = accountId
        self.exportedAt = .time(exportedAt)
        self.modules = modules
    }
}
