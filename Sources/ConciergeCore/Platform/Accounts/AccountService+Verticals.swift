import Foundation

/// What a vertical needs beyond `AccountService+VerticalSessions`: ID tokens that carry the app's
/// nonce, and the one service over a store of the vertical's own (stays writes its guest profile
/// in the account's transaction) — the same policy, hashing, sessions and issuers, not a copy.
extension AccountService {
    /// ID-token sign-in (linking as `signIn(provider:…)` does, the nonce checked when given)
    /// opening a `kind` session of `vertical`; the platform's refreshable session ends at once.
    public func signIn(
        provider: IdentityProvider, idToken: String, nonce: String?, clientIP: String, vertical: String,
        kind: AuthSession.Kind
    ) async throws -> SignedIn {
        let platform = try await signIn(provider: provider, idToken: idToken, nonce: nonce, clientIP: clientIP)
        try await sessions.revoke(SessionService.Authenticated(session: platform.session.session))
        let session = try await sessions.open(kind, accountID: platform.account.id, vertical: vertical)
        return SignedIn(account: platform.account, session: session)
    }

    /// This service over another store, everything else the same.
    public func over(store: any AccountStore) -> AccountService {
        AccountService(
            store: store, sessions: sessions, passwords: passwords, idTokens: idTokens, phoneProof: phoneProof,
            hasher: hasher, random: random, clock: clock, policy: policy, refusedHashing: refusedHashing)
    }
}
