public import Foundation

/// What a module stores about a person, and what happens to it when the person is erased, joins
/// two accounts or asks for a copy. The platform runs every owner in its own transaction
/// (`SQLAccountTransaction.eraseAccount`, `mergeAccount`) and document (`PersonalDataExporter`);
/// an owner touches only its own module's tables.
public protocol AccountDataOwner: Sendable {
    /// The module's name (`platform`, `rides`, …): its key in the export.
    var module: String { get }

    /// Where messages to this person may wait in the outbox: emails, phone numbers, device
    /// tokens. Read before erasure, so the outbox can be scrubbed after the owners blank them.
    func addresses(accountID: String, in db: any SQLExecutor) async throws -> [String]

    /// Deletes or blanks everything personal of the account, in the deletion transaction.
    /// Rows needed for accounting stay, naming only the account's tombstone.
    func erase(accountID: String, at date: Date, in db: any SQLExecutor) async throws

    /// Moves everything of `from` to `into` (joining two accounts), in the joining transaction,
    /// with the module's rules for what both have (docs/privacy.md).
    func move(from: String, into: String, at date: Date, in db: any SQLExecutor) async throws

    /// The module's part of the person's export: table name → rows, secrets left out.
    func export(accountID: String, in db: any SQLExecutor) async throws -> [String: [PersonalDataRow]]

    /// Removes personal fields older than their retention period.
    func sweep(_ retention: RetentionPeriods, now: Date, in db: any SQLExecutor) async throws
}

extension AccountDataOwner {
    public func sweep(_ retention: RetentionPeriods, now: Date, in db: any SQLExecutor) async throws {}
}

/// Every module's owner, the platform's first. The server's modules declare theirs
/// (`VerticalModule.accountData`); a test holds the two lists equal.
public enum AccountDataOwners {
    public static let platform: any AccountDataOwner = PlatformAccountData()
    public static let verticals: [any AccountDataOwner] = [
        RidesAccountData(), StaysAccountData(), EventsAccountData(), CommuteAccountData(),
    ]
    public static var all: [any AccountDataOwner] { [platform] + verticals }
}
