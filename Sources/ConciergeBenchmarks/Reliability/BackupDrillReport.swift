import Foundation

/// What `concierge reliability backup` found, and its figures.
public struct BackupDrillReport: Codable, Sendable {
    public let engine: String
    public let connections: Int
    /// Bookings (and paid bookings) acknowledged before the backup began: each must be in the copy.
    public let bookingsBeforeBackup: Int
    public let paymentsBeforeBackup: Int
    /// Bookings acknowledged while the backup ran: writes went on.
    public let bookingsDuringBackup: Int
    /// Rides orders in the restored copy, and rows in all its tables.
    public let ordersInCopy: Int
    public let rowsInCopy: Int
    public let backupSeconds: Double
    public let backupBytes: Int
    public let restoreSeconds: Double
    public let loadErrors: Int
    public let violations: [String]
    /// The whole drill, seed and restore included.
    public internal(set) var seconds: Double

    public var passed: Bool { violations.isEmpty }

    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    public var table: String {
        let rows: [(String, String)] = [
            ("engine", engine),
            ("bookings acknowledged before the backup", "\(bookingsBeforeBackup) (\(paymentsBeforeBackup) paid)"),
            ("bookings acknowledged during the backup", "\(bookingsDuringBackup)"),
            ("rides orders in the restored copy", "\(ordersInCopy)"),
            ("rows in the restored copy", "\(rowsInCopy)"),
            ("backup", String(format: "%.2f s, %d bytes", backupSeconds, backupBytes)),
            ("restore", String(format: "%.2f s", restoreSeconds)),
            ("load errors", "\(loadErrors)"),
            ("violations", "\(violations.count)"),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        return
            (rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }
            + violations.prefix(20).map { "  - \($0)" }).joined(separator: "\n")
    }
}
