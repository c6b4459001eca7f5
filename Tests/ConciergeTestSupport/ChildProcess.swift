import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program to completion with posix_spawn and waitpid, its output going to a file.
/// Foundation's `Process` with a `Pipe` hung the suite: a process spawned meanwhile (a
/// PostgreSQL server started by another test) inherited the pipe's write end, so reading it
/// never saw its end.
public enum ChildProcess {
    public struct Outcome: Sendable {
        public let exitStatus: Int32
        public let output: String
    }

    /// `withErrors`: standard error goes to the output too (for messages on failure).
    public static func run(_ executable: String, _ arguments: [String], withErrors: Bool = false) throws -> Outcome {
        let logPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "concierge-child-\(UUID().uuidString).out"
        ).path
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if withErrors {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // Nothing else of ours is inherited: a PostgreSQL server started from here lives on, and
        // a pipe end it inherited (Foundation's Process keeps some) would never see its close.
        #if os(Linux)
            _ = spawnCloseFrom(&actions, 3)
        #endif
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: executable])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        // WIFEXITED ? WEXITSTATUS : -1
        return Outcome(exitStatus: status & 0x7f == 0 ? (status >> 8) & 0xff : -1, output: output)
    }
}

#if os(Linux)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which its Swift module does
    /// not import (it is behind `_GNU_SOURCE`).
    @_silgen_name("posix_spawn_file_actions_addclosefrom_np")
    func spawnCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
#endif
