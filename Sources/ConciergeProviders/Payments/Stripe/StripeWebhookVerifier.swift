import ConciergeCore
import Crypto
public import Foundation

/// The parts of a Stripe event Concierge acts on. Everything else is re-read from Stripe with
/// `StripePaymentProvider.fetchPayment`, since events can arrive late, twice or out of order.
public struct StripeWebhookEvent: Sendable, Equatable {
    /// `evt_…`; dedupe on it.
    public let id: String
    /// e.g. `checkout.session.completed`, `checkout.session.expired`,
    /// `checkout.session.async_payment_succeeded`, `checkout.session.async_payment_failed`.
    public let type: String
    /// `data.object.id` when `data.object.object == "checkout.session"`, else nil.
    public let checkoutSessionID: String?
    /// The session's `payment_status` (`paid`, `unpaid`, `no_payment_required`), when present.
    public let paymentStatus: String?

    public init(id: String, type: String, checkoutSessionID: String?, paymentStatus: String?) {
        self.id = id
        self.type = type
        self.checkoutSessionID = checkoutSessionID
        self.paymentStatus = paymentStatus
    }
}

/// Checks the `Stripe-Signature` header of a webhook delivery, as stripe-go's
/// `webhook/client.go` does (contract section 2):
///
/// - the header is `t=<unix seconds>,v1=<hex>[,v1=<hex>…][,v0=…]`; other schemes and unknown
///   keys are ignored, and every `v1` is kept (secret rotation sends one per secret);
/// - the expected signature is `hex(HMAC-SHA256(key: secret, message: "\(t)." + raw body))`,
///   over the exact bytes received;
/// - it passes when any `v1` matches (compared in constant time) and `t` is within
///   `tolerance` of `now`, in either direction.
///
/// Every failure is `ConciergeError(.invalidInput, code: "invalid_signature")`; a signed body
/// that is not an event is `invalid_payload`.
public struct StripeWebhookVerifier: Sendable {
    private let key: SymmetricKey
    private let tolerance: TimeInterval

    /// - Parameters:
    ///   - secret: the endpoint's signing secret, `whsec_…`, used as given (its UTF-8 bytes).
    ///   - tolerance: how far the signed time may be from `now`; 300 s as in Stripe's SDKs.
    public init(secret: String, tolerance: TimeInterval = 300) {
        self.key = SymmetricKey(data: Data(secret.utf8))
        self.tolerance = tolerance
    }

    public func verify(payload: Data, signatureHeader: String?, now: Date) throws -> StripeWebhookEvent {
        guard let signatureHeader, !signatureHeader.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw Self.invalid("The request is not signed.")
        }
        guard let parsed = Self.parse(signatureHeader) else {
            throw Self.invalid("The signature header is malformed.")
        }
        guard !parsed.signatures.isEmpty else {
            throw Self.invalid("The signature header has no v1 signature.")
        }
        guard abs(now.timeIntervalSince1970 - TimeInterval(parsed.timestamp)) <= tolerance else {
            throw Self.invalid("The signature is too old or from the future.")
        }
        let expected = Self.signature(payload: payload, timestamp: parsed.timestampText, key: key)
        var matched = false
        for candidate in parsed.signatures {
            // No early exit: every candidate is compared in full.
            if Self.constantTimeEquals(Array(expected.utf8), Array(candidate.lowercased().utf8)) {
                matched = true
            }
        }
        guard matched else {
            throw Self.invalid("No signature matches.")
        }
        return try Self.event(from: payload)
    }

    /// `hex(HMAC-SHA256(key, "\(timestamp)." + payload))`, lowercase.
    static func signature(payload: Data, timestamp: String, key: SymmetricKey) -> String {
        var message = Data("\(timestamp).".utf8)
        message.append(payload)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: key)
        return mac.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    struct ParsedHeader {
        let timestampText: String
        let timestamp: Int
        let signatures: [String]
    }

    /// nil when there is no single, numeric `t`; the `v1` list may be empty.
    static func parse(_ header: String) -> ParsedHeader? {
        var timestamps: [String] = []
        var signatures: [String] = []
        for item in header.split(separator: ",", omittingEmptySubsequences: true) {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { return nil }
            let name = pair[0].trimmingCharacters(in: .whitespaces)
            let value = pair[1].trimmingCharacters(in: .whitespaces)
            switch name {
            case "t": timestamps.append(value)
            case "v1" where !value.isEmpty: signatures.append(value)
            default: continue
            }
        }
        guard timestamps.count == 1, let text = timestamps.first, !text.isEmpty,
            text.allSatisfy({ $0.isASCII && $0.isNumber }), let timestamp = Int(text)
        else { return nil }
        return ParsedHeader(timestampText: text, timestamp: timestamp, signatures: signatures)
    }

    static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices {
            difference |= lhs[index] ^ rhs[index]
        }
        return difference == 0
    }

    static func invalid(_ message: String) -> ConciergeError {
        ConciergeError(.invalidInput, code: "invalid_signature", message: message)
    }

    private struct Envelope: Decodable {
        struct EventData: Decodable {
            let object: EventObject?
        }

        struct EventObject: Decodable {
            let id: String?
            let object: String?
            let paymentStatus: String?

            enum CodingKeys: String, CodingKey {
                case id, object
                case paymentStatus = "payment_status"
            }
        }

        let id: String
        let type: String
        let data: EventData?
    }

    static func event(from payload: Data) throws -> StripeWebhookEvent {
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: payload) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_payload", message: "The webhook body is not a Stripe event.")
        }
        let object = envelope.data?.object
        let isSession = object?.object == "checkout.session"
        return StripeWebhookEvent(
            id: envelope.id, type: envelope.type, checkoutSessionID: isSession ? object?.id : nil,
            paymentStatus: object?.paymentStatus)
    }
}
