/// An order's public handle: a short code people read out (`VRM-4821937705`) and an
/// unguessable secret that opens public pages (return page, tickets). The code is not a secret.
public struct OrderReference: Sendable, Equatable {
    public let code: String
    public let secret: String

    public init(code: String, secret: String) {
        self.code = code
        self.secret = secret
    }
}

/// Draws reference codes from a space that cannot run out: a prefix and `minimumDigits` random
/// digits, one more digit after every `attemptsPerLength` codes found taken. A crowded space
/// therefore grows itself instead of failing; with ten digits that takes billions of orders.
public struct OrderReferenceGenerator: Sendable {
    public let prefix: String
    public let minimumDigits: Int
    public let attemptsPerLength: Int
    /// Beyond this the code would no longer fit a 64-bit integer (rides' `tripRequestId`).
    public static let maximumDigits = 18

    public init(prefix: String, minimumDigits: Int = 10, attemptsPerLength: Int = 3) {
        self.prefix = prefix
        self.minimumDigits = min(max(minimumDigits, 1), Self.maximumDigits)
        self.attemptsPerLength = max(attemptsPerLength, 1)
    }

    /// How many attempts it takes to reach the longest code; callers loop at most this often.
    public var attempts: Int { (Self.maximumDigits - minimumDigits + 1) * attemptsPerLength }

    /// The digit count for the `attempt`-th try (0-based).
    public func digits(forAttempt attempt: Int) -> Int {
        min(minimumDigits + attempt / attemptsPerLength, Self.maximumDigits)
    }

    /// A candidate for the `attempt`-th try, with a fresh secret.
    public func candidate(attempt: Int, random: any RandomSource) -> OrderReference {
        // A leading zero would make the code and its number differ ("VRM-0123" vs 123).
        var digits = random.digits(digits(forAttempt: attempt))
        if digits.first == "0" { digits = String(1 + Int(random.bytes(1).first ?? 0) % 9) + digits.dropFirst() }
        return OrderReference(code: prefix + digits, secret: random.token(byteCount: 24))
    }
}
