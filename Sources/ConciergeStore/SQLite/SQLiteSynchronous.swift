/// How a SQLite commit reaches the disk (`PRAGMA synchronous`, in WAL mode).
public enum SQLiteSynchronous: String, Sendable, Equatable, CaseIterable {
    /// Every commit is synced before it is acknowledged: a power cut loses nothing that was
    /// acknowledged. Group commit makes this cheap: one sync per group of writes.
    case full
    /// Commits survive the application crashing, but an operating-system crash or power cut can
    /// lose the last ones, after the customer was told they went in.
    case normal
}
