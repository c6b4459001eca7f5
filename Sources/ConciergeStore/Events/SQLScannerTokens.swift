public import ConciergeCore
public import Foundation

extension SQLEventsStore: ScannerTokenStore {
    public func insertScannerToken(_ token: ScannerToken, digest: String) async throws {
        try await database.query(
            "INSERT INTO events_scanner_tokens (id, name, digest, created_at) VALUES (?, ?, ?, ?)",
            [.text(token.id), .text(token.name), .text(digest), SQLValue(token.createdAt)])
    }

    public func scannerTokens() async throws -> [ScannerToken] {
        try await database.query(
            "SELECT id, name, created_at, revoked_at FROM events_scanner_tokens ORDER BY created_at, id", []
        ).map(Self.scannerToken)
    }

    public func activeScannerToken(digest: String) async throws -> ScannerToken? {
        try await database.query(
            "SELECT id, name, created_at, revoked_at FROM events_scanner_tokens WHERE digest = ? AND revoked_at IS NULL",
            [.text(digest)]
        ).first.map(Self.scannerToken)
    }

    public func revokeScannerToken(id: String, at: Date) async throws -> ScannerToken? {
        try await database.query(
            "UPDATE events_scanner_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
            [SQLValue(at), .text(id)])
        return try await database.query(
            "SELECT id, name, created_at, revoked_at FROM events_scanner_tokens WHERE id = ?", [.text(id)]
        ).first.map(Self.scannerToken)
    }

    private static func scannerToken(_ row: SQLRow) throws -> ScannerToken {
        ScannerToken(
            id: try row.string("id"), name: try row.string("name"), createdAt: try row.date("created_at"),
            revokedAt: try row.optionalDate("revoked_at"))
    }
}
