public import Foundation

/// A person who signed in. One identity across verticals; rides knows them by phone.
public struct Customer: Sendable, Equatable {
    public let id: String
    public let phone: PhoneNumber
    public var name: String?
    public var email: String?
    public let createdAt: Date

    public init(id: String, phone: PhoneNumber, name: String?, email: String?, createdAt: Date) {
        self.id = id
        self.phone = phone
        self.name = name
        self.email = email
        self.createdAt = createdAt
    }
}

/// The one code currently waiting for a phone. A new send replaces it.
public struct CodeChallenge: Sendable, Equatable {
    public let id: String
    public let phone: PhoneNumber
    /// Keyed hash of the code; nil when the SMS provider (Twilio Verify) keeps the code itself.
    public let codeHash: String?
    public let sentAt: Date
    public let expiresAt: Date
    public var wrongGuesses: Int

    public init(id: String, phone: PhoneNumber, codeHash: String?, sentAt: Date, expiresAt: Date, wrongGuesses: Int) {
        self.id = id
        self.phone = phone
        self.codeHash = codeHash
        self.sentAt = sentAt
        self.expiresAt = expiresAt
        self.wrongGuesses = wrongGuesses
    }
}

/// A stored session: only the keyed hash of its token is kept.
public struct StoredSession: Sendable, Equatable {
    public let tokenHash: String
    public let customerID: String
    public let createdAt: Date
    public let expiresAt: Date
    public let revokedAt: Date?

    public init(tokenHash: String, customerID: String, createdAt: Date, expiresAt: Date, revokedAt: Date?) {
        self.tokenHash = tokenHash
        self.customerID = customerID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }
}
