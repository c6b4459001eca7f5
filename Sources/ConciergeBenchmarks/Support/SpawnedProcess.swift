import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started with `posix_spawnp`, its standard output and error appended to files
/// (or dropped), inheriting no other descriptor of ours.
///
/// Not Foundation's `Process`: on Linux its `run()` lists `/proc/self/fd` with a read that runs
/// past glibc's buffer (swift-corelibs-foundation PR 5472, fixed after Swift 6.3.1) and crashed
/// the test process in `memcpy` whenever it held about 1,300 descriptors — the whole suite,
/// which runs its servers and clients in one process, reaches that.
public final class SpawnedProcess: @unchecked Sendable {
    public let pid: Int32
    /// The wait status once the child was reaped; guarded by `lock`.
    private var reaped: Int32?
    private let lock = NIOLock()

    /// Starts `executable` (a path, or a name looked up in PATH) with exactly `environment`.
    public init(
        executable: String, arguments: [String], environment: [String: String], outputPath: String?,
        errorPath: String?
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let append = O_WRONLY | O_CREAT | O_APPEND
        posix_spawn_file_actions_addopen(
            &actions, 1, outputPath ?? "/dev/null", outputPath == nil ? O_WRONLY : append, 0o644)
        if let errorPath, errorPath == outputPath {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(
                &actions, 2, errorPath ?? "/dev/null", errorPath == nil ? O_WRONLY : append, 0o644)
        }
        #if os(Linux)
            _ = spawnedProcessCloseFrom(&actions, 3)
        #endif
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawnp(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else {
            throw CocoaError(
                .executableLoad,
                userInfo: [
                    NSLocalizedDescriptionKey: "cannot start \(executable): \(String(cString: strerror(result)))"
                ])
        }
        self.pid = pid
    }

    /// Whether the child still runs (reaping it once it ended).
    public var isRunning: Bool { status() == nil }

    /// The exit code, or the signal that ended it; nil while it runs.
    public var exitStatus: Int32? {
        status().map { Self.decoded($0) }
    }

    public func signal(_ signal: Int32) {
        guard isRunning else { return }
        kill(pid, signal)
    }

    /// Blocks this thread until the child has ended, looking every 5 ms (never holding the lock
    /// while it waits, so `isRunning` from elsewhere answers at once).
    public func waitUntilExit() {
        while status() == nil { usleep(5_000) }
    }

    /// The wait status once the child ended (reaping it then); nil while it runs.
    private func status() -> Int32? {
        lock.withLock {
            if let reaped { return reaped }
            var status: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &status, WNOHANG) } while result == -1 && errno == EINTR
            // ECHILD: something else reaped it; it has ended, with a status nobody can tell now.
            if result == -1 && errno == ECHILD { status = Self.unknownStatus }
            guard result == pid || status == Self.unknownStatus else { return nil }
            reaped = status
            return status
        }
    }

    private static let unknownStatus: Int32 = -1

    /// WIFEXITED ? WEXITSTATUS : WTERMSIG (-1 when it is not known).
    private static func decoded(_ status: Int32) -> Int32 {
        if status == unknownStatus { return -1 }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
    }
}

#if os(Linux)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which its Swift module does
    /// not import (it is behind `_GNU_SOURCE`).
    @_silgen_name("posix_spawn_file_actions_addclosefrom_np")
    func spawnedProcessCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
#endif
