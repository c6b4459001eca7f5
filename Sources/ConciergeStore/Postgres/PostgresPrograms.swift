public import Foundation

/// Where PostgreSQL's programs are looked for — by the tests' throwaway server, the drills' and
/// `concierge backup`'s `pg_dump`/`pg_restore`: `CONCIERGE_PG_BIN`, then Debian's versioned
/// folders (newest first: a `pg_dump` refuses a server newer than itself), then `PATH`.
public enum PostgresPrograms {
    public static func searchFolders(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> [String]
    {
        var folders: [String] = []
        if let explicit = environment["CONCIERGE_PG_BIN"] { folders.append(explicit) }
        let debian = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: debian)) ?? []).compactMap(Int.init)
        folders += versions.sorted(by: >).map { "\(debian)/\($0)/bin" }
        folders += (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return folders
    }

    /// The first folder of `folders` that holds every one of `programs`.
    public static func folder(
        holding programs: [String],
        in folders: [String] = searchFolders()
    ) -> String? {
        folders.first { folder in
            programs.allSatisfy { FileManager.default.isExecutableFile(atPath: "\(folder)/\($0)") }
        }
    }
}
