import Foundation

/// The limits this instance saw refused, and until when, so that a flood from one network is
/// answered 429 without a database statement each time.
///
/// It only repeats what the shared limit (the `rate_events` in the database, counted across
/// instances) answered: a refused attempt is not recorded, and other instances' attempts only
/// add events, so a key refused at `now` with a wait of `retryAfter` stays refused at least
/// until `now + retryAfter` — the moment the event that keeps its window full drops out. Past
/// that moment the database decides again. (A cost measured by `concierge bench http
/// --scenarios signup-flood`: each 429 was a transaction with the keys' locks and a count.)
public final class RefusedLimits: @unchecked Sendable {
    private struct Refusal {
        let until: Date
        let message: String
    }

    /// Entries kept at most; past it the expired ones go (and all of them, if none has expired:
    /// forgetting a refusal only costs the database look-up this saves).
    private let capacity: Int
    private let lock = NSLock()
    private var refusals: [String: Refusal] = [:]

    public init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// The longest standing refusal among `keys` at `now`, as the limit answered it.
    func refusal(keys: [String], at now: Date) -> ConciergeError? {
        lock.lock()
        defer { lock.unlock() }
        var worst: Refusal?
        for key in keys {
            guard let refusal = refusals[key] else { continue }
            guard refusal.until > now else {
                refusals[key] = nil
                continue
            }
            if refusal.until > (worst?.until ?? .distantPast) { worst = refusal }
        }
        return worst.map {
            ConciergeError.rateLimited($0.message, retryAfter: max(1, Int(ceil($0.until.timeIntervalSince(now)))))
        }
    }

    func remember(key: String, until: Date, message: String, now: Date) {
        lock.lock()
        defer { lock.unlock() }
        if refusals.count >= capacity {
            refusals = refusals.filter { $0.value.until > now }
            if refusals.count >= capacity { refusals.removeAll() }
        }
        refusals[key] = Refusal(until: until, message: message)
    }
}
