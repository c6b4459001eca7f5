/// Where an ID token comes from. Apple and Google have fixed issuers; `oidc` is any issuer in
/// the configuration (Clerk is one), chosen by the token's `iss`.
public enum IdentityProvider: String, Sendable, CaseIterable {
    case apple
    case google
    case oidc
}

/// What a verified ID token says about the person.
public struct VerifiedIdentity: Sendable, Equatable {
    /// The issuer in canonical form (Google's two spellings are one issuer).
    public let issuer: String
    public let subject: String
    public let email: String?
    /// True only when the provider vouches for the email.
    public let emailVerified: Bool
    public let name: String?

    public init(issuer: String, subject: String, email: String?, emailVerified: Bool, name: String?) {
        self.issuer = issuer
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
    }

    /// The credential identifier: providers reuse emails, never (issuer, subject).
    public var credentialIdentifier: String { "\(issuer) \(subject)" }
}

/// Checks an ID token's signature against its issuer's keys and its `iss`, `aud`, `exp`,
/// `nbf` and, when one is expected, `nonce`. Every refusal is 401 `invalid_id_token`.
public protocol IDTokenVerifier: Sendable {
    func verify(_ token: String, provider: IdentityProvider, nonce: String?) async throws -> VerifiedIdentity
}
