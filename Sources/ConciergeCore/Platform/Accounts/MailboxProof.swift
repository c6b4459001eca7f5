import Foundation

/// What an account proves about its owner, and what the first proof of its mailbox removes
/// (finding 1 of the 2026-11-27 review: pre-account takeover).
///
/// Anyone can sign up with another person's address; until the mailbox is proven the account is
/// *unproven*, and whatever was made on it may be a squatter's. So an unproven account cannot
/// link or join other methods (`AccountService.link`), and when a reset or a verification link
/// first proves the mailbox, every other sign-in method and session made before goes, and the
/// address is told what was removed. Mailbox proof wins over an unproven squatter.
struct MailboxProof {
    let token: AccountToken
    /// The account's credentials just before the proof.
    let credentials: [StoredCredential]

    static func before(_ token: AccountToken, in tx: any AccountTransaction) async throws -> MailboxProof {
        MailboxProof(token: token, credentials: try await tx.credentials(accountID: token.accountID))
    }

    /// An account is unproven while it has an email and none of its methods proves its owner: no
    /// verified email, no phone (SMS-proven), no provider identity. A user name proves nothing.
    static func isUnproven(_ credentials: [StoredCredential]) -> Bool {
        let proven = credentials.contains {
            switch $0.kind {
            case .email: $0.verifiedAt != nil
            case .phone, .oidc: true
            case .username: false
            }
        }
        return !proven && credentials.contains { $0.kind == .email }
    }

    /// Drops, when this is the account's first proof, every credential but the proven email,
    /// every password and every session, and mails the address the list. `replacingPassword`:
    /// the prover chooses a new one now (a reset), so the old one is not worth a line.
    func dropUnproven(
        in tx: any AccountTransaction, at now: Date, publicURL: String, replacingPassword: Bool = false
    ) async throws {
        guard Self.isUnproven(credentials) else { return }
        var removed = credentials.filter { !($0.kind == .email && $0.identifier == token.identifier) }
            .map(Self.describe)
        let proven = credentials.first { $0.kind == .email && $0.identifier == token.identifier }
        if !replacingPassword, proven?.secretHash != nil {
            removed.insert("the password chosen when the account was created", at: 0)
        }
        try await tx.dropCredentials(accountID: token.accountID, keepingEmail: token.identifier)
        try await tx.revokeSessions(accountID: token.accountID, at: now)
        guard !removed.isEmpty else { return }
        let message = AccountMessages.unprovenMethodsRemoved(
            email: token.identifier, removed: removed, publicURL: publicURL)
        try await tx.enqueueEmail(
            dedupeKey: "account:unproven-removed:\(token.tokenHash.prefix(32))", to: token.identifier,
            subject: message.subject, body: message.body, at: now)
    }

    private static func describe(_ credential: StoredCredential) -> String {
        switch credential.kind {
        case .email: "the email address \(credential.identifier)"
        case .username: "the user name \(credential.identifier)"
        case .phone: "the phone number \(credential.identifier)"
        case .oidc: "the sign-in with \(credential.identifier.split(separator: " ").first ?? "a provider")"
        }
    }
}
