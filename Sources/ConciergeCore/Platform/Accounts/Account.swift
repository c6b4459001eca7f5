public import Foundation

/// How a person proves who they are to an account. One account has any number of these.
public enum CredentialKind: String, Sendable, CaseIterable {
    /// An SMS code to an E.164 number (rides).
    case phone
    /// An email address, with a password when the person set one.
    case email
    /// A user name with a password (stays).
    case username
    /// An ID token from Apple, Google or a configured OpenID Connect issuer; the identifier is
    /// `issuer sub`, never the email (providers reuse emails, never subjects).
    case oidc
}

/// One sign-in method of an account as stored: `identifier` is normalised, `secretHash` is the
/// bcrypt hash of the password on email and username credentials that have one.
public struct StoredCredential: Sendable, Equatable {
    public let kind: CredentialKind
    public let identifier: String
    public let accountID: String
    public let secretHash: String?
    public let verifiedAt: Date?
    public let createdAt: Date

    public init(
        kind: CredentialKind, identifier: String, accountID: String, secretHash: String?, verifiedAt: Date?,
        createdAt: Date
    ) {
        self.kind = kind
        self.identifier = identifier
        self.accountID = accountID
        self.secretHash = secretHash
        self.verifiedAt = verifiedAt
        self.createdAt = createdAt
    }
}

/// An account and what it can sign in with, as `GET /account` shows it.
public struct AccountOverview: Sendable, Equatable {
    public struct Method: Sendable, Equatable {
        public let kind: CredentialKind
        public let identifier: String
        public let verified: Bool
        public let hasPassword: Bool
    }

    public let id: String
    public let displayName: String?
    public let createdAt: Date
    public let methods: [Method]

    public init(id: String, displayName: String?, createdAt: Date, credentials: [StoredCredential]) {
        self.id = id
        self.displayName = displayName
        self.createdAt = createdAt
        self.methods = credentials.map {
            Method(
                kind: $0.kind, identifier: $0.identifier, verified: $0.verifiedAt != nil,
                hasPassword: $0.secretHash != nil)
        }
    }

    public var verifiedEmails: [String] {
        methods.filter { $0.kind == .email && $0.verified }.map(\.identifier)
    }

    public var verifiedPhones: [String] {
        methods.filter { $0.kind == .phone && $0.verified }.map(\.identifier)
    }
}

/// A single-use token mailed to an address: email verification (24 h) or password reset (1 h).
/// Only its keyed hash is stored.
public struct AccountToken: Sendable, Equatable {
    public enum Purpose: String, Sendable {
        case verifyEmail = "verify-email"
        case resetPassword = "reset-password"
    }

    public let tokenHash: String
    public let accountID: String
    public let purpose: Purpose
    /// The email address the token was sent to.
    public let identifier: String
    public let createdAt: Date
    public let expiresAt: Date

    public init(
        tokenHash: String, accountID: String, purpose: Purpose, identifier: String, createdAt: Date, expiresAt: Date
    ) {
        self.tokenHash = tokenHash
        self.accountID = accountID
        self.purpose = purpose
        self.identifier = identifier
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
