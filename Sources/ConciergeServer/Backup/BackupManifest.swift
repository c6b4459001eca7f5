public import Foundation

/// What `concierge backup` writes beside a backup (`FILE.manifest.json`), and what `restore`
/// checks the file against before it touches anything.
public struct BackupManifest: Codable, Sendable, Equatable {
    /// This layout's version.
    public var format = 1
    /// `sqlite` (a database file) or `postgresql` (a `pg_dump --format=custom` archive).
    public var engine: String
    /// When the copy's snapshot was taken (ISO 8601, UTC): every commit before it is in the copy.
    public var createdAt: String
    /// The backup's file name; the manifest lies beside it.
    public var file: String
    public var bytes: Int
    /// SHA-256 of the backup file, lowercase hex.
    public var sha256: String
    /// The highest applied migration of each module (`core`, `platform` groups, verticals).
    public var schemaVersions: [String: Int]
    /// Rows per table in the snapshot.
    public var rowCounts: [String: Int]
    /// `ok`: SQLite's `PRAGMA integrity_check` of the copy, or, on PostgreSQL, `pg_restore --list`
    /// read the archive's table of contents.
    public var integrityCheck: String
    /// How long the backup took.
    public var seconds: Double

    public static func url(besides backup: URL) -> URL {
        backup.deletingLastPathComponent().appendingPathComponent(backup.lastPathComponent + ".manifest.json")
    }

    public static func read(besides backup: URL) throws -> BackupManifest {
        let url = url(besides: backup)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw BackupRefusal("\(url.path) is missing; a backup is restored only with its manifest")
        }
        do {
            return try JSONDecoder().decode(BackupManifest.self, from: data)
        } catch {
            throw BackupRefusal("\(url.path) is not a backup manifest: \(error)")
        }
    }

    func write(besides backup: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: Self.url(besides: backup), options: .atomic)
    }

    var created: Date? { try? Date(createdAt, strategy: .iso8601) }

    static func timestamp(_ date: Date) -> String { date.formatted(.iso8601) }
}

/// Why a backup or a restore was not made, in a sentence for the operator.
public struct BackupRefusal: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
