public import ConciergeCore
import Foundation

/// An `SMSSender` that keeps messages in memory and can be told to fail, for tests.
public final class RecordingSMSSender: SMSSender, @unchecked Sendable {
    private let lock = NSLock()
    private var sent: [(phone: String, body: String)] = []
    private var failure: ConciergeError?

    public init() {}

    public func sendSMS(to phone: PhoneNumber, body: String) async throws {
        try lock.withLock {
            if let failure { throw failure }
            sent.append((phone.e164, body))
        }
    }

    public var messages: [(phone: String, body: String)] { lock.withLock { sent } }

    /// The six-digit code in the newest message to `phone`.
    public func lastCode(to phone: String) -> String? {
        lock.withLock { sent.last { $0.phone == phone } }.flatMap { Self.code(in: $0.body) }
    }

    public func failNextSends(with error: ConciergeError?) {
        lock.withLock { failure = error }
    }

    /// The first run of exactly six digits in `text`.
    public static func code(in text: String) -> String? {
        var run = ""
        for character in text + " " {
            if character.isASCII && character.isNumber {
                run.append(character)
            } else {
                if run.count == 6 { return run }
                run = ""
            }
        }
        return nil
    }
}
