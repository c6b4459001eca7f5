/// What instances that share one database tell each other about their writes, so that what they
/// keep in memory follows the others' changes (PostgreSQL's `LISTEN/NOTIFY`). Nil where only one
/// instance can run (SQLite): there, every change is this instance's own.
public protocol ClusterNotices: Sendable {
    /// Sends each payload on `channel` to every instance listening, this one included.
    func send(_ payloads: [String], on channel: String) async throws

    /// Hands each payload sent on `channel` to `receive`. `missed` is called whenever notices may
    /// have been lost (the listening connection dropped and is back): a listener then treats
    /// everything it keeps as stale. Listeners are added while the application is assembled,
    /// before the notices run.
    func listen(
        on channel: String, receive: @escaping @Sendable (String) -> Void, missed: @escaping @Sendable () -> Void)
}
