public import ConciergeCore
public import Foundation
import JWTKit

/// The APNs provider token: an ES256 JWT signed with the team's `.p8` key, header
/// `{"alg":"ES256","kid":<key id>}`, claims `{"iss":<team id>,"iat":<seconds, a number>}`.
///
/// Apple rejects a token older than an hour (`ExpiredProviderToken`) and one replaced more often
/// than every 20 minutes (`TooManyProviderTokenUpdates`), so one token is shared by every
/// request and replaced after 50 minutes (as sideshow/apns2 does), or at once when APNs rejects
/// the token in use.
public actor APNsProviderToken {
    /// How long one token is used.
    public static let lifetime: TimeInterval = 50 * 60

    private let keys = JWTKeyCollection()
    private let keyID: String
    private let teamID: String
    private let clock: any TimeSource
    private var current: (jwt: String, issuedAt: Date)?

    /// - Parameter privateKeyPEM: the `.p8` file's text (PEM, PKCS#8, a P-256 key).
    public init(privateKeyPEM: String, keyID: String, teamID: String, clock: any TimeSource) async throws {
        let key = try ES256PrivateKey(pem: privateKeyPEM)
        await keys.add(ecdsa: key, kid: JWKIdentifier(string: keyID))
        self.keyID = keyID
        self.teamID = teamID
        self.clock = clock
    }

    /// The token to send now: the cached one while it is younger than `lifetime`.
    public func token() async throws -> String {
        let now = clock.now
        if let current, now >= current.issuedAt, now.timeIntervalSince(current.issuedAt) < Self.lifetime {
            return current.jwt
        }
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let jwt = try await keys.sign(
            Claims(iss: teamID, iat: Int(issuedAt.timeIntervalSince1970)), kid: JWKIdentifier(string: keyID))
        current = (jwt, issuedAt)
        return jwt
    }

    /// A new token after APNs rejected `rejected`; when another request already replaced it,
    /// that newer one (so a burst of rejections makes one new token, not many).
    public func replacing(_ rejected: String) async throws -> String {
        if current?.jwt == rejected { current = nil }
        return try await token()
    }

    struct Claims: JWTPayload {
        let iss: String
        let iat: Int

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
