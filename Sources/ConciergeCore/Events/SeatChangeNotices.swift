import Foundation

/// Tells the other instances on the database which shows' seat states this one changed, and marks
/// stale what they changed (channel `concierge_seats`, the show's id as the payload), so that a
/// seat sold on one instance shows sold on every other within milliseconds instead of the seat-state
/// cache's `maxAge`.
///
/// Sending: each change queues its show; one send at a time carries every show queued since the
/// last, so a show sold a hundred times in a burst costs a few notices, not a hundred. A notice is
/// sent after its change committed, so it never announces a change that was rolled back; an
/// instance that dies between its commit and its notice leaves the others on the `maxAge` bound.
///
/// Receiving: every instance hears its own notices too. Its own changes are in its cache already
/// (`mark`), so the echo of a notice it sent (within `echoWindow`) is skipped rather than making it
/// read the whole show again; any other notice marks the show stale. An echo matched to another
/// instance's notice that came first only delays that invalidation until the echo itself arrives.
public final class SeatChangeNotices: @unchecked Sendable {
    public static let channel = "concierge_seats"

    private let cluster: any ClusterNotices
    private let cache: SeatStateCache
    private let echoWindow: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let lock = NSLock()
    private var queued: [String] = []
    private var sending = false
    /// When this instance sent a notice for each show, oldest first, until its echo comes back.
    private var sent: [String: [ContinuousClock.Instant]] = [:]

    public init(
        cluster: any ClusterNotices, cache: SeatStateCache, echoWindow: Duration = .seconds(2),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.cluster = cluster
        self.cache = cache
        self.echoWindow = echoWindow
        self.now = now
        cluster.listen(
            on: Self.channel, receive: { [weak self] in self?.received(showID: $0) },
            missed: { [weak self] in self?.missed() })
    }

    /// The show's seat states changed here and the change is committed.
    public func announce(showID: String) {
        let start: Bool = lock.withLock {
            if !queued.contains(showID) { queued.append(showID) }
            guard !sending else { return false }
            sending = true
            return true
        }
        if start { Task { await sendQueued() } }
    }

    private func sendQueued() async {
        while true {
            let batch: [String]? = lock.withLock {
                guard !queued.isEmpty else {
                    sending = false
                    return nil
                }
                defer { queued = [] }
                let at = now()
                for showID in queued { sent[showID, default: []].append(at) }
                return queued
            }
            guard let batch else { return }
            do {
                try await cluster.send(batch, on: Self.channel)
            } catch {
                // The others keep their `maxAge` bound; an echo that comes anyway costs a re-read.
                lock.withLock { for showID in batch { _ = sent[showID]?.popLast() } }
            }
        }
    }

    /// A notice from the channel: another instance's change, or the echo of one of ours.
    func received(showID: String) {
        let echo: Bool = lock.withLock {
            let cutoff = now() - echoWindow
            var times = (sent[showID] ?? []).filter { $0 >= cutoff }
            let echo = !times.isEmpty
            if echo { times.removeFirst() }
            sent[showID] = times.isEmpty ? nil : times
            return echo
        }
        if !echo { cache.invalidate(showID: showID) }
    }

    /// Notices may have been lost: nothing kept can be trusted past this moment.
    func missed() {
        lock.withLock { sent = [:] }
        cache.invalidateAll()
    }
}
