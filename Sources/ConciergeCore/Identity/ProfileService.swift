import Foundation

/// Reading and changing a customer's own profile.
public struct ProfileService: Sendable {
    /// A change to one profile field: leave it, clear it, or set it.
    public enum FieldChange: Sendable, Equatable {
        case keep
        case clear
        case set(String)
    }

    private let store: any IdentityStore

    public init(store: any IdentityStore) {
        self.store = store
    }

    public func update(_ customer: Customer, name: FieldChange, email: FieldChange) async throws -> Customer {
        let newName = try apply(name, to: customer.name, validate: ProfileRules.validName)
        let newEmail = try apply(email, to: customer.email, validate: ProfileRules.validEmail)
        guard let updated = try await store.updateCustomer(id: customer.id, name: newName, email: newEmail) else {
            throw ConciergeError.sessionExpired
        }
        return updated
    }

    private func apply(
        _ change: FieldChange, to current: String?, validate: (String) throws(ConciergeError) -> String
    ) throws -> String? {
        switch change {
        case .keep: current
        case .clear: nil
        case .set(let value): try validate(value)
        }
    }
}

/// What a name and an email address must look like.
public enum ProfileRules {
    public static func validName(_ raw: String) throws(ConciergeError) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(name.count) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_name", message: "Your name must be between 1 and 100 characters long.")
        }
        guard !name.contains(where: { $0.isNewline || ($0.asciiValue.map { $0 < 0x20 } ?? false) }) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_name",
                message: "Your name cannot contain line breaks or control characters.")
        }
        return name
    }

    /// A pragmatic check, not RFC 5322: one `@`, a non-empty local part, a domain with a dot and
    /// no empty labels, no spaces, at most 254 characters. Stored lower-cased in the domain.
    public static func validEmail(_ raw: String) throws(ConciergeError) -> String {
        let email = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        let invalid = ConciergeError(
            .invalidInput, code: "invalid_email",
            message: "'\(email.prefix(60))' is not an email address we can send confirmations to, e.g. anna@example.ch."
        )
        guard email.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64,
            EmailAddress.isPlausible(email)
        else { throw invalid }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && !$0.hasPrefix("-") && !$0.hasSuffix("-") }),
            let tld = labels.last, tld.count >= 2, tld.allSatisfy(\.isLetter)
        else { throw invalid }
        return "\(parts[0])@\(parts[1].lowercased())"
    }
}
