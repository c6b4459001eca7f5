/// What a password must be (EVENTS.md): 10 to 128 characters and not one of the passwords
/// attackers try first.
public enum PasswordPolicy {
    public static let minimumLength = 10
    public static let maximumLength = 128

    public static func validate(_ password: String) throws(ConciergeError) {
        guard password.count >= minimumLength else {
            throw ConciergeError(
                .invalidInput, code: "weak_password",
                message: "Choose a password of at least \(minimumLength) characters.")
        }
        guard password.count <= maximumLength else {
            throw ConciergeError(
                .invalidInput, code: "weak_password",
                message: "Choose a password of at most \(maximumLength) characters.")
        }
        guard !CommonPasswords.contains(password) else {
            throw ConciergeError(
                .invalidInput, code: "weak_password",
                message: "This password is one of the most common ones and is guessed first. Choose another.")
        }
    }
}
