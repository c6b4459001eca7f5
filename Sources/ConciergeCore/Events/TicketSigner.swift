import Crypto
public import Foundation

/// Signs a booking's scan payload with Ed25519, so a door scanner holding only the public key
/// (`GET /events/api/checkin/key`) can tell a real ticket from a forged one offline. The key
/// is derived from the server secret: every instance signs alike and restarts keep it.
public struct TicketSigner: Sendable {
    private let key: Curve25519.Signing.PrivateKey
    static let prefix = "CEVT1"

    /// `seed` is 32 bytes or more of secret material (the server secret's keyed hash).
    public init(seed: Data) throws {
        key = try Curve25519.Signing.PrivateKey(rawRepresentation: Data(SHA256.hash(data: seed)))
    }

    /// The public key, base64url, for scanners.
    public var publicKey: String { key.publicKey.rawRepresentation.base64URLEncodedString() }

    /// `CEVT1.<orderID>.<showID>.<seat count>.<signature>`.
    public func payload(orderID: String, showID: String, seats: Int) -> String {
        let body = "\(Self.prefix).\(orderID).\(showID).\(seats)"
        let signature = (try? key.signature(for: Data(body.utf8))) ?? Data()
        return body + "." + signature.base64URLEncodedString()
    }

    /// The order and show a payload names, when its signature is ours; nil otherwise.
    public func verify(_ payload: String) -> (orderID: String, showID: String)? {
        let parts = payload.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard payload.count <= 400, parts.count == 5, parts[0] == Self.prefix,
            let signature = Data(base64URLEncoded: parts[4])
        else { return nil }
        let body = parts[0..<4].joined(separator: ".")
        guard key.publicKey.isValidSignature(signature, for: Data(body.utf8)) else { return nil }
        return (parts[1], parts[2])
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
