import ConciergeCore
import ConciergeStore
import Foundation
import Hummingbird

/// `GET /account/export`: everything stored about the signed-in person as one JSON document
/// (docs/privacy.md). A bearer token of any vertical signs the request in; without one, the web
/// session cookie does, so the button on `/account` is a plain link that downloads the file.
struct AccountExportController {
    let exporter: PersonalDataExporter
    let sessions: SessionService
    let web: WebFrontEnd
    let clock: any TimeSource

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("account/export", use: export)
    }

    @Sendable func export(request: Request, context: AppRequestContext) async throws -> Response {
        let bearer = SessionMiddleware.bearerToken(request.headers[.authorization])
        let accountID: String
        if bearer == nil, let signedIn = await web.visit(request).accountID {
            accountID = signedIn
        } else {
            accountID = try await sessions.authenticate(token: bearer).session.accountID
        }
        let document = try await exporter.export(accountID: accountID, at: clock.now)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.contentDisposition] = #"attachment; filename="concierge-personal-data.json""#
        // Personal data: no cache on the way may keep a copy.
        headers[.cacheControl] = "no-store"
        return Response(
            status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(document))))
    }
}
