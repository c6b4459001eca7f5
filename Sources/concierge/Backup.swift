import ArgumentParser
import ConciergeServer
import Foundation

/// `concierge backup --to FILE`: a copy of the configured database, taken while the server runs.
struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the configured database to a file while the server runs, with a manifest beside it.",
        discussion: """
            SQLite: SQLite's online backup API, from one snapshot (every commit before it is in the copy), \
            checked with PRAGMA integrity_check. PostgreSQL (DATABASE_URL): pg_dump --format=custom. Writes \
            FILE.manifest.json: time, schema versions, row counts, SHA-256, engine. See docs/operators/backups.md.
            """)

    @Option(help: "Where to write the backup.") var to: String
    @Flag(help: "Print the manifest as JSON.") var json = false
    @OptionGroup var flags: ServerFlags

    func run() async throws {
        let configuration = try await flags.configuration()
        LogSetup.bootstrap(configuration)
        let file = URL(fileURLWithPath: to)
        let manifest = try await BackupCommandLine.reporting {
            try await DatabaseBackup(configuration: configuration).backup(to: file)
        }
        if json {
            print(try BackupCommandLine.json(manifest))
        } else {
            let rows = manifest.rowCounts.values.reduce(0, +)
            print(
                "Backed up the \(manifest.engine) database to \(file.path) (\(manifest.bytes) bytes, \(rows) rows, "
                    + "\(String(format: "%.2f", manifest.seconds)) s); manifest \(file.path).manifest.json.")
        }
    }
}

/// `concierge restore FILE`: the backup in place of the configured database, once it checks out.
struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Restore a backup made by `concierge backup` into the configured database.",
        discussion: """
            Refuses a file whose SHA-256 differs from its manifest, one that fails PRAGMA integrity_check \
            (SQLite) or pg_restore --list (PostgreSQL), and one with a newer schema than this binary knows. \
            SQLite: stop the server first (a database a server has open is refused); the replaced file is kept \
            as NAME.before-restore-TIME. PostgreSQL: into an empty database, or --force to replace its tables.
            """)

    @Argument(help: "The backup file (its FILE.manifest.json beside it).") var file: String
    @Flag(help: "PostgreSQL: drop the tables of a non-empty database and restore in their place.") var force = false
    @OptionGroup var flags: ServerFlags

    func run() async throws {
        let configuration = try await flags.configuration()
        LogSetup.bootstrap(configuration)
        let url = URL(fileURLWithPath: file)
        let manifest = try await BackupCommandLine.reporting {
            try await DatabaseBackup(configuration: configuration).restore(from: url, force: force)
        }
        print("Restored \(url.path), taken \(manifest.createdAt), into the \(manifest.engine) database.")
    }
}

enum BackupCommandLine {
    /// A refusal is the answer, not a crash: its sentence on standard error and exit status 1.
    static func reporting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let refusal as BackupRefusal {
            FileHandle.standardError.write(Data("concierge: \(refusal.description)\n".utf8))
            throw ExitCode.failure
        }
    }

    static func json(_ manifest: BackupManifest) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(manifest), as: UTF8.self)
    }
}
