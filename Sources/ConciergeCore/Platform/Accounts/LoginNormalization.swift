import Foundation

/// How logins are compared: emails by `ProfileRules.validEmail` and then lower-cased whole
/// (people type their address in any case, and providers treat the local part as case-blind in
/// practice), user names lower-cased.
public enum LoginNormalization {
    public static func email(_ raw: String) throws(ConciergeError) -> String {
        try ProfileRules.validEmail(raw).lowercased()
    }

    public static func username(_ raw: String) throws(ConciergeError) -> String {
        let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
        guard (3...40).contains(name.count),
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
        else { throw ConciergeError.invalidUsername() }
        return name
    }

    /// A sign-in login is an email when it has an `@`, a user name otherwise.
    static func login(_ raw: String) -> (CredentialKind, String)? {
        if raw.contains("@") {
            return (try? email(raw)).map { (.email, $0) }
        }
        return (try? username(raw)).map { (.username, $0) }
    }
}
