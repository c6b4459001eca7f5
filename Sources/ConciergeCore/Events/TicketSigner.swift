import Crypto
public import Foundation

/// Signs a booking's scan payload with Ed25519, so a door scanner holding only the public key
/// (`GET /events/api/checkin/key`) can tell a real ticket from a forged one offline. The key
/// is derived from the server secret: every instance signs alike and restarts keep it.
public struct TicketSigner: Sendable {
    private let key: Curve25519.Signing.PrivateKey
    static let prefix = "CEVT1"
    static let seatPrefix = "CEVS1"

    /// What a signed payload names: a booking, and one seat of it for a seat's ticket.
    public struct Signed: Sendable, Equatable {
        public let orderID: String
        public let showID: String
        /// The seat of a seat's ticket; nil for the booking's payload (all its seats).
        public let seatID: String?
    }

    /// `seed` is 32 bytes or more of secret material (the server secret's keyed hash).
    public init(seed: Data) throws {
        key = try Curve25519.Signing.PrivateKey(rawRepresentation: Data(SHA256.hash(data: seed)))
    }

    /// The public key, base64url, for scanners.
    public var publicKey: String { key.publicKey.rawRepresentation.base64URLEncodedString() }

    /// `CEVT1.<orderID>.<showID>.<seat count>.<signature>`.
    public func payload(orderID: String, showID: String, seats: Int) -> String {
        signed("\(Self.prefix).\(orderID).\(showID).\(seats)")
    }

    /// One seat's ticket (what its QR image holds): `CEVS1.<orderID>.<showID>.<seatID>.<signature>`.
    public func seatPayload(orderID: String, showID: String, seatID: String) -> String {
        signed("\(Self.seatPrefix).\(orderID).\(showID).\(seatID)")
    }

    private func signed(_ body: String) -> String {
        let signature = (try? key.signature(for: Data(body.utf8))) ?? Data()
        return body + "." + signature.base64URLEncodedString()
    }

    /// What a payload (the booking's or a seat's) names, when its signature is ours; nil otherwise.
    public func verify(_ payload: String) -> Signed? {
        let parts = payload.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard payload.count <= 400, parts.count == 5, parts[0] == Self.prefix || parts[0] == Self.seatPrefix,
            let signature = Data(base64URLEncoded: parts[4])
        else { return nil }
        let body = parts[0..<4].joined(separator: ".")
        guard key.publicKey.isValidSignature(signature, for: Data(body.utf8)) else { return nil }
        return Signed(orderID: parts[1], showID: parts[2], seatID: parts[0] == Self.seatPrefix ? parts[3] : nil)
    }
}

extension Data {
    /// Decodes base64url without padding (RFC 4648 §5); nil for anything else.
    fileprivate init?(base64URLEncoded text: String) {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            return nil
        }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
