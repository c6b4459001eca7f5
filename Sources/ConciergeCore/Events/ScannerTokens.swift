import Crypto
public import Foundation

/// A door scanner's own bearer token, issued by the admin API: it opens `POST /checkin` and
/// nothing else, and revoking it locks that one device out. Only its SHA-256 is kept (the token
/// is 256 random bits, so a plain hash is enough); the token itself is shown once.
public struct ScannerToken: Sendable, Equatable {
    public let id: String
    /// What the box office calls the device, e.g. `North gate 1`.
    public let name: String
    public let createdAt: Date
    public let revokedAt: Date?

    public init(id: String, name: String, createdAt: Date, revokedAt: Date?) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    static let prefix = "evscan_"

    /// The hex SHA-256 the store keeps and looks a presented token up by.
    public static func digest(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

/// Where scanner tokens are kept.
public protocol ScannerTokenStore: Sendable {
    func insertScannerToken(_ token: ScannerToken, digest: String) async throws
    func scannerTokens() async throws -> [ScannerToken]
    /// The unrevoked token with this digest.
    func activeScannerToken(digest: String) async throws -> ScannerToken?
    /// Revokes it once; the token as it is now, nil when unknown.
    func revokeScannerToken(id: String, at: Date) async throws -> ScannerToken?
}

extension EventsService {
    /// A new scanner token; the secret is in the answer only.
    public func issueScannerToken(name: String) async throws -> (token: ScannerToken, secret: String) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 100 else {
            throw ConciergeError(
                .invalidInput, code: "invalid_request", message: "name is the scanner's name, 1 to 100 characters.")
        }
        let secret = ScannerToken.prefix + random.token(byteCount: 32)
        let token = ScannerToken(
            id: random.identifier(prefix: "scn"), name: trimmed, createdAt: clock.now, revokedAt: nil)
        try await scanners.insertScannerToken(token, digest: ScannerToken.digest(secret))
        return (token, secret)
    }

    public func scannerTokens() async throws -> [ScannerToken] { try await scanners.scannerTokens() }

    public func revokeScannerToken(id: String) async throws -> ScannerToken {
        guard let token = try await scanners.revokeScannerToken(id: id, at: clock.now) else {
            throw ConciergeError(.notFound, code: "scanner_token_not_found", message: "There is no such scanner token.")
        }
        return token
    }

    /// Whether `token` is a live scanner token.
    public func isScannerToken(_ token: String) async throws -> Bool {
        guard token.hasPrefix(ScannerToken.prefix), token.count <= 200 else { return false }
        return try await scanners.activeScannerToken(digest: ScannerToken.digest(token)) != nil
    }
}
