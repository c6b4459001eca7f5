import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird

/// Door scanners' tokens, with the admin token: `POST /events/api/admin/scanner-tokens
/// {"name"}` issues one (the token is in this answer only), `GET` lists them, `DELETE …/{id}`
/// revokes one. A scanner token opens `POST /events/api/checkin` and nothing else.
struct EventsScannerTokensController {
    let events: EventsService

    struct IssueRequest: Decodable {
        let name: String
    }

    struct TokenBody: Encodable {
        let id: String
        let name: String
        let createdAt: String
        let revokedAt: String?
        /// Only when issued.
        let token: String?

        init(_ token: ScannerToken, secret: String? = nil) {
            id = token.id
            name = token.name
            createdAt = WireDate.string(from: token.createdAt)
            revokedAt = token.revokedAt.map { WireDate.string(from: $0) }
            self.token = secret
        }
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("scanner-tokens", use: issue)
        group.get("scanner-tokens", use: list)
        group.delete("scanner-tokens/:id", use: revoke)
    }

    @Sendable func issue(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(IssueRequest.self, context: context)
        let issued = try await events.issueScannerToken(name: body.name)
        return try jsonResponse(TokenBody(issued.token, secret: issued.secret), status: .created)
    }

    @Sendable func list(request: Request, context: AppRequestContext) async throws -> Response {
        try jsonResponse(try await events.scannerTokens().map { TokenBody($0) })
    }

    @Sendable func revoke(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard id.count <= 100 else {
            throw ConciergeError(.notFound, code: "scanner_token_not_found", message: "There is no such scanner token.")
        }
        return try jsonResponse(TokenBody(try await events.revokeScannerToken(id: id)))
    }
}
