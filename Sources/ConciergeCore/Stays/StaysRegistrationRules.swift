import Foundation

/// The register form's rules (STAYS.md), checked all at once so every broken rule is reported
/// beside its field.
public enum StaysRegistrationRules {
    public struct Valid: Sendable, Equatable {
        public let username: String
        public let firstName: String
        public let lastName: String
        public let email: String
        public let phone: String
    }

    public static func validate(
        username: String, firstName: String, lastName: String, email: String, phone: String, password: String
    ) throws(StaysValidationError) -> Valid {
        var fields: [String: String] = [:]
        let name = self.username(username, into: &fields)
        let first = self.name(firstName, field: "firstName", into: &fields)
        let last = self.name(lastName, field: "lastName", into: &fields)
        let mail = self.email(email, into: &fields)
        let number = self.phone(phone, into: &fields)
        do {
            try PasswordPolicy.validate(password)
        } catch {
            fields["password"] = error.message
        }
        guard fields.isEmpty else { throw StaysValidationError(fields) }
        return Valid(username: name, firstName: first, lastName: last, email: mail, phone: number)
    }

    /// 3–30 of `a-z 0-9 . _ -`, compared without case (`Anna.M` is `anna.m`).
    static func username(_ raw: String, into fields: inout [String: String]) -> String {
        let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
        guard (3...30).contains(name.count),
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
        else {
            fields["username"] = "Use 3 to 30 letters, digits, dots, dashes or underscores."
            return name
        }
        // `/stays/user/register` is the registration itself, so no profile can live there.
        if name == "register" { fields["username"] = "This user name is reserved. Choose another one." }
        return name
    }

    public static func name(_ raw: String, field: String, into fields: inout [String: String]) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else {
            fields[field] = field == "firstName" ? "Enter your first name." : "Enter your last name."
            return name
        }
        guard name.count <= 100, !name.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 32 } == true }) else {
            fields[field] = "Use at most 100 characters, on one line."
            return name
        }
        return name
    }

    static func email(_ raw: String, into fields: inout [String: String]) -> String {
        do {
            return try LoginNormalization.email(raw)
        } catch {
            fields["email"] = "Enter a valid email address, like anna@example.com."
            return raw
        }
    }

    public static func phone(_ raw: String, into fields: inout [String: String]) -> String {
        do {
            return try PhoneNumber(normalizing: raw).e164
        } catch {
            fields["phone"] = "Enter the number with its country code, like +41 79 123 45 67."
            return raw
        }
    }
}
