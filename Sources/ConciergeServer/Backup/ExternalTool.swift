import ConciergeStore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// PostgreSQL's client programs (`pg_dump`, `pg_restore`), found where the tests find the
/// server's: `CONCIERGE_PG_BIN`, Debian's versioned folders (newest first: a `pg_dump` refuses a
/// server newer than itself), then `PATH`.
struct ExternalTool {
    let path: String

    init(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard
            let folder = PostgresPrograms.folder(
                holding: [name], in: PostgresPrograms.searchFolders(environment: environment))
        else {
            throw BackupRefusal(
                "\(name) was not found; install PostgreSQL's client programs (Debian/Ubuntu: `apt-get install "
                    + "postgresql-client`) or point CONCIERGE_PG_BIN at their folder")
        }
        path = "\(folder)/\(name)"
    }

    /// Runs the program to its end on a thread of its own (a dump takes seconds to minutes);
    /// returns its output, standard error included. A non-zero exit throws with that output.
    func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> String {
        let path = self.path
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try Self.runToEnd(path, arguments, extra) })
            }
        }
    }

    /// posix_spawn, not Foundation's `Process`: on Linux its `run()` crashed processes holding
    /// many descriptors (see `SpawnedProcess` in ConciergeBenchmarks), which a server is.
    private static func runToEnd(_ path: String, _ arguments: [String], _ extra: [String: String]) throws -> String {
        // Output to a file, not a pipe: nothing then waits on a descriptor another child inherited.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("concierge-tool-\(UUID()).out")
        defer { try? FileManager.default.removeItem(at: log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        #if os(Linux)
            _ = toolCloseFrom(&actions, 3)
        #endif
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard spawned == 0 else {
            throw BackupRefusal("cannot start \(path): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").trimmingCharacters(
            in: .whitespacesAndNewlines)
        // WIFEXITED ? WEXITSTATUS : a signal.
        let exit = status & 0x7f == 0 ? (status >> 8) & 0xff : -1
        guard exit == 0 else { throw BackupRefusal("\(name) failed (exit \(exit)): \(text)") }
        return text
    }
}

#if os(Linux)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which its Swift module does
    /// not import (it is behind `_GNU_SOURCE`).
    @_silgen_name("posix_spawn_file_actions_addclosefrom_np")
    private func toolCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
#endif
