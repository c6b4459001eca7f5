public import Foundation

/// Per-customer limits on making orders, written once for every vertical (security review
/// finding 5, issue 25; `docs/limits.md`). Each vertical configures its numbers; 0 turns a limit
/// off (the benchmarks and the fuzzer do, and say so).
public struct OrderLimits: Sendable, Equatable {
    /// Orders still waiting for their payment that one account may have at once: each holds
    /// inventory and opens a payment at the provider.
    public var maxOpenUnpaid: Int
    /// Orders one account may place per hour.
    public var maxPerHour: Int
    /// Order-creating requests per client network (an IPv4 address, an IPv6 /64) per minute,
    /// every vertical together: sign-ups are free, so per-account caps alone do not bound a script.
    public var perNetworkPerMinute: Int

    public init(maxOpenUnpaid: Int = 3, maxPerHour: Int = 10, perNetworkPerMinute: Int = 30) {
        self.maxOpenUnpaid = maxOpenUnpaid
        self.maxPerHour = maxPerHour
        self.perNetworkPerMinute = perNetworkPerMinute
    }

    public static let off = OrderLimits(maxOpenUnpaid: 0, maxPerHour: 0, perNetworkPerMinute: 0)
}

/// What the platform needs to know of a vertical's orders to count them, and how a refusal is
/// worded in that vertical.
public struct OrderLimitScope: Sendable {
    public let vertical: String
    /// The vertical's state names (`orders.state`) that mean "open, waiting for the payment".
    public let openStates: Set<String>
    /// The longest an order stays open unpaid (its hold or quote). An open order without a
    /// payment deadline lapses this long after it was made.
    public let openLifetime: TimeInterval
    /// The zone the times in messages are given in.
    public let timeZone: TimeZone
    public let wording: OrderLimitWording

    public init(
        vertical: String, openStates: Set<String>, openLifetime: TimeInterval, timeZone: TimeZone,
        wording: OrderLimitWording = .orders
    ) {
        self.vertical = vertical
        self.openStates = openStates
        self.openLifetime = openLifetime
        self.timeZone = timeZone
        self.wording = wording
    }
}

/// The codes and sentences of the two account caps. `until` is a local time like "14:05".
public struct OrderLimitWording: Sendable {
    public let unpaidCode: String
    public let hourlyCode: String
    public let unpaid: @Sendable (_ count: Int, _ until: String) -> String
    public let hourly: @Sendable (_ count: Int, _ until: String) -> String

    public init(
        unpaidCode: String, hourlyCode: String, unpaid: @escaping @Sendable (Int, String) -> String,
        hourly: @escaping @Sendable (Int, String) -> String
    ) {
        self.unpaidCode = unpaidCode
        self.hourlyCode = hourlyCode
        self.unpaid = unpaid
        self.hourly = hourly
    }

    /// Events', stays' and every later vertical's.
    public static let orders = OrderLimitWording(
        unpaidCode: "too_many_unpaid_orders", hourlyCode: "too_many_orders",
        unpaid: { count, until in
            "You have \(count) unpaid orders. Pay or cancel one of them, or wait until the first expires at \(until), then try again."
        },
        hourly: { count, until in
            "You have placed \(count) orders in the last hour. Try again after \(until)."
        })
}

/// One order of the account as the counts need it.
public struct RecentOrder: Sendable, Equatable {
    public let state: String
    public let createdAt: Date
    /// The deadline of its payment, if it has one.
    public let paymentExpiresAt: Date?

    public init(state: String, createdAt: Date, paymentExpiresAt: Date?) {
        self.state = state
        self.createdAt = createdAt
        self.paymentExpiresAt = paymentExpiresAt
    }
}

/// A cap the vertical counts and the platform enforces: seats per account per show, rooms of
/// one type per account per night.
public struct OrderCap: Sendable, Equatable {
    public let code: String
    /// 0: off.
    public let limit: Int
    /// What the account has now.
    public let current: Int
    /// What the new order would add.
    public let adding: Int
    public let retryAfterSeconds: Int
    public let message: String

    public init(code: String, limit: Int, current: Int, adding: Int, retryAfterSeconds: Int, message: String) {
        self.code = code
        self.limit = limit
        self.current = current
        self.adding = adding
        self.retryAfterSeconds = retryAfterSeconds
        self.message = message
    }

    public var isExceeded: Bool { limit > 0 && current + adding > limit }
}

/// Where the limits read from: the platform `orders` table (so every instance counts the same
/// orders) and the rate events the sign-in throttles use.
public protocol OrderLimitStore: Sendable {
    /// The account's orders of `vertical` made at or after `since`.
    func recentOrders(vertical: String, accountID: String, since: Date) async throws -> [RecentOrder]
    /// Runs `body` in a transaction holding locks on `keys`, over the shared rate events.
    func withRateEvents<T: Sendable>(
        locking keys: [String], _ body: @escaping @Sendable (any RateEventLog) async throws -> T
    ) async throws -> T
}

/// What one account has of a vertical's orders: the counts the two account caps compare.
public struct OrderCounts: Sendable, Equatable {
    public var open = 0
    /// When the first open order lapses, which frees a place.
    public var firstOpenExpiry: Date?
    public var lastHour = 0
    /// The oldest order of the last hour: an hour after it a place frees.
    public var oldestInHour: Date?

    public init(_ orders: [RecentOrder], scope: OrderLimitScope, now: Date) {
        let hourAgo = now.addingTimeInterval(-3600)
        for order in orders {
            if order.createdAt >= hourAgo {
                lastHour += 1
                oldestInHour = min(oldestInHour ?? order.createdAt, order.createdAt)
            }
            guard scope.openStates.contains(order.state) else { continue }
            // A lapsed order the worker has not expired yet no longer holds anything.
            let expiry = order.paymentExpiresAt ?? order.createdAt.addingTimeInterval(scope.openLifetime)
            guard expiry > now else { continue }
            open += 1
            firstOpenExpiry = min(firstOpenExpiry ?? expiry, expiry)
        }
    }
}

/// Checks the limits before a vertical creates an order. Concurrent requests of one account can
/// pass this count together; the unpaid cap is made exact by `openCap`, checked again in the
/// order's transaction under a lock on the account (the per-network limit counts under a lock).
public struct OrderLimitChecker: Sendable {
    public let limits: OrderLimits
    let store: any OrderLimitStore
    let clock: any TimeSource
    let random: any RandomSource

    public init(limits: OrderLimits, store: any OrderLimitStore, clock: any TimeSource, random: any RandomSource) {
        self.limits = limits
        self.store = store
        self.clock = clock
        self.random = random
    }

    /// Counts one order-creating request of the client's network, or throws 429 `rate_limited`
    /// with the wait. Stored with the sign-in throttles' events, so it holds across instances.
    public func admit(clientIP: String) async throws {
        guard limits.perNetworkPerMinute > 0 else { return }
        let limit = RateLimit(
            key: "orders:net:\(ClientNetwork.key(for: clientIP))", limit: limits.perNetworkPerMinute, window: 60,
            message: "Many orders were placed from your network in the last minute.")
        let now = clock.now
        let attemptID = random.identifier(prefix: "order")
        try await store.withRateEvents(locking: [limit.key]) { log in
            try await RateLimitEnforcer(limits: [limit]).enforce(in: log, now: now, attemptID: attemptID)
        }
    }

    /// Throws 429 with `Retry-After` and what to do when the account may not place another
    /// order: too many unpaid, too many this hour, or a vertical's own cap in `caps`.
    /// `alsoCounting` are orders the vertical keeps outside the `orders` table (stays' pay-at-hotel
    /// reservations), counted with those in it.
    public func check(
        accountID: String, scope: OrderLimitScope, caps: [OrderCap] = [], alsoCounting: [RecentOrder] = []
    ) async throws {
        let now = clock.now
        if limits.maxOpenUnpaid > 0 || limits.maxPerHour > 0 {
            let since = now.addingTimeInterval(-max(3600, scope.openLifetime))
            let counts = OrderCounts(
                try await store.recentOrders(vertical: scope.vertical, accountID: accountID, since: since)
                    + alsoCounting, scope: scope, now: now)
            try check(counts, scope: scope, now: now)
        }
        if let cap = caps.first(where: \.isExceeded) {
            throw ConciergeError(
                .tooManyRequests(retryAfterSeconds: max(cap.retryAfterSeconds, 1)), code: cap.code,
                message: cap.message)
        }
    }

    func check(_ counts: OrderCounts, scope: OrderLimitScope, now: Date) throws {
        if limits.maxOpenUnpaid > 0, counts.open >= limits.maxOpenUnpaid {
            let frees = counts.firstOpenExpiry ?? now.addingTimeInterval(scope.openLifetime)
            throw ConciergeError(
                .tooManyRequests(retryAfterSeconds: Self.seconds(from: now, to: frees)),
                code: scope.wording.unpaidCode,
                message: scope.wording.unpaid(counts.open, Self.clockTime(frees, in: scope.timeZone)))
        }
        if limits.maxPerHour > 0, counts.lastHour >= limits.maxPerHour {
            let frees = (counts.oldestInHour ?? now).addingTimeInterval(3600)
            throw ConciergeError(
                .tooManyRequests(retryAfterSeconds: Self.seconds(from: now, to: frees)),
                code: scope.wording.hourlyCode,
                message: scope.wording.hourly(counts.lastHour, Self.clockTime(frees, in: scope.timeZone)))
        }
    }

    /// Whole seconds until `date`, rounded up and at least 1.
    public static func seconds(from now: Date, to date: Date) -> Int {
        max(Int(date.timeIntervalSince(now).rounded(.up)), 1)
    }

    /// "14:05" in `zone`, rounded up to the minute so that a person who waits until then is in time.
    public static func clockTime(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let rounded = Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.up) * 60)
        let parts = calendar.dateComponents([.hour, .minute], from: rounded)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}
