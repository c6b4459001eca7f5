import NIOCore
import NIOPosix

/// One thread of its own for the code that holds the SQLite connection. SQLite takes one writer
/// at a time, so whoever holds the connection should never wait behind request work for a core:
/// each statement's continuation resumes here, on a thread that is otherwise idle, instead of
/// queueing on the shared pool while every other booking waits for the lock.
final class DatabaseThread: Sendable {
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let executor: (any Sendable)?

    init() {
        if #available(macOS 15.0, iOS 18.0, *) {
            executor = EventLoopTaskExecutor(loop: group.next())
        } else {
            executor = nil
        }
    }

    /// Runs `body` with this thread as the preferred executor of its nonisolated async code.
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        if #available(macOS 15.0, iOS 18.0, *), let executor = executor as? EventLoopTaskExecutor {
            return try await withTaskExecutorPreference(executor) { try await body() }
        }
        return try await body()
    }

    func shutdown() async throws {
        try await group.shutdownGracefully()
    }
}

@available(macOS 15.0, iOS 18.0, *)
private final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
