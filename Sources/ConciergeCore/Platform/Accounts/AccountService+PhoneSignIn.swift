import Foundation

/// Signing in with an SMS code, for every vertical: the code is proven by the platform's
/// `SignInService` (its limits, its one-use challenge), and the phone's account is the one its
/// phone credential names — the same account rides' sign-in uses — or a new one with the phone
/// as its first method. No email is involved, so nothing joins another account here.
extension AccountService {
    /// Signs in with a phone and the code sent to it, opening the platform's refreshable session.
    public func signIn(phone: String, code: String, clientIP: String) async throws -> SignedIn {
        try await signIn(phone: phone, code: code, clientIP: clientIP, vertical: Self.vertical, kind: .refreshable)
    }

    /// Signs in with a phone and the code sent to it, opening a `kind` session of `vertical`.
    public func signIn(
        phone: String, code: String, clientIP: String, vertical: String, kind: AuthSession.Kind
    ) async throws -> SignedIn {
        let proven = try await phoneProof(phone, code, clientIP)
        let accountID = try await phoneAccount(proven)
        let session = try await sessions.open(kind, accountID: accountID, vertical: vertical)
        return SignedIn(account: try await account(id: accountID), session: session)
    }

    /// The account of a proven phone; made when the phone has none. Rides' sign-in makes the same
    /// credential under its own lock: when it wins the race, the new account is rolled back and
    /// the owner read once more.
    private func phoneAccount(_ phone: PhoneNumber) async throws -> String {
        do {
            return try await phoneAccount(phone, newAccountID: random.identifier(prefix: "acc"))
        } catch is PhoneTakenMeanwhile {
            return try await phoneAccount(phone, newAccountID: random.identifier(prefix: "acc"))
        }
    }

    private func phoneAccount(_ phone: PhoneNumber, newAccountID: String) async throws -> String {
        let now = clock.now
        return try await store.transaction(locking: ["account-login:phone:\(phone.e164)"]) { tx in
            if let existing = try await tx.credential(kind: .phone, identifier: phone.e164) {
                return existing.accountID
            }
            try await tx.insertAccount(id: newAccountID, displayName: nil, at: now)
            let credential = StoredCredential(
                kind: .phone, identifier: phone.e164, accountID: newAccountID, secretHash: nil, verifiedAt: now,
                createdAt: now)
            guard try await tx.insertCredential(credential) else { throw PhoneTakenMeanwhile() }
            return newAccountID
        }
    }
}

private struct PhoneTakenMeanwhile: Error {}
