import ConciergeCore
import Foundation
import Hummingbird

/// The operator's side of the front end: `/ops` sessions (server-side, in the sessions table
/// with vertical `ops`, revoked by sign-out) that name an operator, and the operator's actions,
/// each written to the audit log in the transaction that makes it (review 2026-11-27,
/// finding 10).
extension WebFrontEnd {
    /// Opens an operator's session (12 hours) and answers its cookie; the sign-in is audited.
    func openOperatorSession(for identity: OperatorIdentity, hours: Int = 12) async throws -> String {
        let issued = try await operators.perform(by: identity, "ops.sign_in", subject: "") {
            if identity == .adminToken {
                try await operatorAccounts.ensureOperatorAccount(
                    id: identity.accountID, name: "Operator (admin token)", at: clock.now)
            }
            return try await sessions.open(
                .bearer, accountID: identity.accountID, vertical: SessionService.operatorVertical,
                bearerLifetime: hours * 3600)
        }
        return WebCookie.setting(
            WebCookie.operatorSession, issued.accessToken, maxAge: hours * 3600, secure: secureCookies)
    }

    /// Revokes the operator session the request's cookie names, if any; the sign-out is audited.
    func closeOperatorSession(_ request: Request, visit: WebVisit) async throws {
        guard let identity = visit.operatorIdentity,
            let session = await operatorSession(WebCookie.parse(request)[WebCookie.operatorSession])
        else { return }
        try await operators.perform(by: identity, "ops.sign_out", subject: "") {
            try await sessions.revoke(session)
        }
    }

    func signedOutOperatorCookie() -> String {
        WebCookie.setting(WebCookie.operatorSession, "", maxAge: 0, secure: secureCookies)
    }

    func isAdminToken(_ candidate: String) -> Bool {
        guard let adminToken, !candidate.isEmpty else { return false }
        return SecretHasher.constantTimeEquals(candidate, adminToken)
    }

    /// Runs an operator's action (an order cancelled, a ride moved, a ticket scanned) and writes
    /// who did it to the audit log, in the action's own transaction where it writes (see
    /// `OperatorAction`); a visitor who is no operator is sent to sign in.
    func operatorAction<T: Sendable>(
        _ visit: WebVisit, _ action: String, subject: String, detail: String = "",
        unwritten: (T) -> String? = { _ in nil }, _ body: () async throws -> T
    ) async throws -> T {
        guard let identity = visit.operatorIdentity else {
            throw WebRedirect(to: "/ops/sign-in?next=\(Self.queryEscaped(visit.path))")
        }
        return try await operators.perform(
            by: identity, action, subject: subject, detail: detail, unwritten: unwritten, body)
    }

    /// Who an operator cookie signs in: a named operator's session, or an admin-token session
    /// while no named operator exists (after the first one is added, the admin token's sessions
    /// no longer open `/ops` either). None while `/ops` is off (no admin token).
    func operatorIdentity(_ token: String?) async -> OperatorIdentity? {
        guard let session = await operatorSession(token) else { return nil }
        if session.accountID == Operator.adminTokenAccountID {
            return (try? await operators.adminTokenSignsIn()) == true ? .adminToken : nil
        }
        guard let named = try? await operators.operator(accountID: session.accountID) else { return nil }
        return OperatorIdentity(accountID: named.accountID, name: named.name)
    }

    /// The live `ops` session an operator cookie names, never a customer's.
    func operatorSession(_ token: String?) async -> SessionService.Authenticated? {
        guard adminToken != nil, let token, !token.isEmpty else { return nil }
        return try? await sessions.authenticateOperator(token: token)
    }
}
