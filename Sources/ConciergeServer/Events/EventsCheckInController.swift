import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird

/// The door: `POST /events/api/checkin` with a scanner token (the admin token) admits a
/// ticket once; `GET /events/api/checkin/key` gives scanners the public key that checks a
/// ticket's signature offline.
struct EventsCheckInController {
    let events: EventsService
    let scannerToken: String?

    struct CheckInRequest: Decodable {
        let qrCode: String?
        let secret: String?
        let showId: String
        let gate: String?
    }

    struct CheckInResponse: Encodable {
        let result: String
        let seat: String?
        let attendee: String?
        let firstScannedAt: String?
    }

    struct KeyResponse: Encodable {
        let algorithm: String
        let publicKey: String
        let payload: String
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("api/checkin/key", use: key)
        // The admin token, or a scanner token the admin API issued and has not revoked.
        let events = events
        group.group()
            .add(middleware: ScannerTokenMiddleware(token: scannerToken, alsoAccepts: events.isScannerToken))
            .post("api/checkin", use: checkIn)
    }

    @Sendable func key(request: Request, context: AppRequestContext) async throws -> Response {
        try jsonResponse(
            KeyResponse(
                algorithm: "Ed25519", publicKey: events.signer.publicKey,
                payload:
                    "CEVT1.<orderId>.<showId>.<seats>.<signature> (the booking) or CEVS1.<orderId>.<showId>.<seatId>.<signature> (one seat); the signature is base64url Ed25519 of the part before it"
            ))
    }

    @Sendable func checkIn(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(CheckInRequest.self, context: context)
        guard (body.qrCode == nil) != (body.secret == nil) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_request", message: "Send the ticket's qrCode or its secret (one of them)."
            )
        }
        guard !body.showId.isEmpty, body.showId.count <= 100, (body.gate?.count ?? 0) <= 100 else {
            throw ConciergeError(.invalidInput, code: "invalid_request", message: "showId and gate are short texts.")
        }
        let result = try await events.checkIn(
            qrCode: body.qrCode, secret: body.secret, showID: body.showId, gate: body.gate ?? "main")
        return try jsonResponse(
            CheckInResponse(
                result: result.outcome.rawValue, seat: result.seat, attendee: result.attendee,
                firstScannedAt: result.firstScannedAt.map(WireDate.string(from:))))
    }
}

/// The door's and the box office's bearer token: the admin token, when one is configured, and
/// at the door also a live scanner token (`alsoAccepts`); anything else answers 401.
struct ScannerTokenMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let token: String?
    var alsoAccepts: (@Sendable (String) async throws -> Bool)?
    var code = "scanner_unauthorized"
    var message =
        "Check-in needs a scanner token (issued by POST /events/api/admin/scanner-tokens) or the admin token as a bearer token."

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let given = SessionMiddleware.bearerToken(request.headers[.authorization]) else {
            throw ConciergeError(.unauthorized, code: code, message: message)
        }
        if let token, SecretHasher.constantTimeEquals(given, token) { return try await next(request, context) }
        if let alsoAccepts, try await alsoAccepts(given) { return try await next(request, context) }
        throw ConciergeError(.unauthorized, code: code, message: message)
    }
}
