import Foundation

/// Explicit linking (proof of both methods: the session is one, the proof the other) and
/// deletion.
extension AccountService {
    /// Proof of the method being linked.
    public enum Proof: Sendable {
        case password(login: String, password: String)
        case idToken(provider: IdentityProvider, token: String, nonce: String?)
        case smsCode(phone: String, code: String)
    }

    /// Adds the proven method to the signed-in account. When it already signs in to another
    /// account, the two become one with everything of both (docs/privacy.md, "Joining two
    /// accounts"); the other account survives when it has a rides profile, else this one.
    /// Returns the account the session now belongs to.
    public func link(accountID: String, proof: Proof, clientIP: String) async throws -> AccountOverview {
        let now = clock.now
        let proven: StoredCredential
        var verifiedEmail: String?
        switch proof {
        case .password(let login, let password):
            let owner = try await checkPassword(login: login, password: password, clientIP: clientIP)
            proven = StoredCredential(
                kind: .email, identifier: "", accountID: owner, secretHash: nil, verifiedAt: nil, createdAt: now)
        case .idToken(let provider, let token, let nonce):
            let identity = try await idTokens.verify(token, provider: provider, nonce: nonce)
            proven = StoredCredential(
                kind: .oidc, identifier: identity.credentialIdentifier, accountID: "", secretHash: nil,
                verifiedAt: now, createdAt: now)
            if identity.emailVerified { verifiedEmail = identity.email.flatMap { try? LoginNormalization.email($0) } }
        case .smsCode(let phone, let code):
            let phone = try await phoneProof(phone, code, clientIP)
            proven = StoredCredential(
                kind: .phone, identifier: phone.e164, accountID: "", secretHash: nil, verifiedAt: now, createdAt: now)
        }
        let provenEmail = verifiedEmail
        let locks =
            ["account-link:\(accountID)"]
            + (proven.identifier.isEmpty ? [] : ["account-login:\(proven.kind.rawValue):\(proven.identifier)"])
        let survivor = try await store.transaction(locking: locks.sorted()) { tx in
            // A password proves an account (all of its credentials); the others one identifier.
            let owner: String?
            if !proven.accountID.isEmpty {
                owner = proven.accountID
            } else {
                owner = try await tx.credential(kind: proven.kind, identifier: proven.identifier)?.accountID
            }
            // An account nobody has proven may be a squatter's: it neither gains methods nor
            // joins another account (MailboxProof).
            guard !MailboxProof.isUnproven(try await tx.credentials(accountID: accountID)) else {
                throw ConciergeError.unprovenAccountCannotLink
            }
            var survivor = accountID
            if let owner, owner != accountID {
                guard !MailboxProof.isUnproven(try await tx.credentials(accountID: owner)) else {
                    throw ConciergeError.unprovenAccountCannotJoin
                }
                survivor = try await merge(owner, with: accountID, in: tx, at: now)
            } else if owner == nil {
                _ = try await tx.insertCredential(
                    StoredCredential(
                        kind: proven.kind, identifier: proven.identifier, accountID: accountID, secretHash: nil,
                        verifiedAt: now, createdAt: now))
            }
            if let provenEmail {
                _ = try await tx.insertCredential(
                    StoredCredential(
                        kind: .email, identifier: provenEmail, accountID: survivor, secretHash: nil, verifiedAt: now,
                        createdAt: now))
            }
            return survivor
        }
        return try await account(id: survivor)
    }

    /// Joins two accounts; returns the one that remains.
    private func merge(_ other: String, with current: String, in tx: any AccountTransaction, at now: Date)
        async throws -> String
    {
        // Every module moves its data (both rides profiles' bookings included, docs/privacy.md);
        // the account with a rides profile keeps its id, which rides' old clients may hold.
        let otherRides = try await tx.hasRidesProfile(accountID: other)
        let (from, into) = otherRides ? (current, other) : (other, current)
        try await tx.mergeAccount(from, into: into, at: now)
        return into
    }

    /// Erases the account's personal data and ends its sessions; orders and bookings stay,
    /// anonymised, for accounting.
    public func deleteAccount(id: String) async throws {
        let now = clock.now
        try await store.transaction(locking: ["account-link:\(id)"]) { tx in
            try await tx.eraseAccount(id: id, at: now)
        }
    }
}
