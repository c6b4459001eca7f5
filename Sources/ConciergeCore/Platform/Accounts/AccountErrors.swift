/// The errors of accounts, worded for the person signing in.
extension ConciergeError {
    /// One answer for an unknown login and a wrong password, so neither can be told apart.
    public static let invalidCredentials = ConciergeError(
        .unauthorized, code: "invalid_credentials",
        message: "The email, user name or password is not right. Check them, or reset your password.")

    public static func invalidIDToken(_ reason: String) -> ConciergeError {
        ConciergeError(
            .unauthorized, code: "invalid_id_token",
            message: "The sign-in with your provider could not be confirmed (\(reason)). Sign in with it again.")
    }

    public static let emailTaken = ConciergeError(
        .conflict, code: "email_taken",
        message: "This email address is already registered. Sign in, or reset your password.")

    public static let usernameTaken = ConciergeError(
        .conflict, code: "username_taken", message: "This user name is taken. Choose another one.")

    public static let invalidAccountToken = ConciergeError(
        .invalidInput, code: "invalid_token",
        message: "This link has expired or was used already. Request a new one.")

    public static let credentialInUse = ConciergeError(
        .conflict, code: "credential_in_use",
        message:
            "Both accounts have rides bookings, so they cannot be joined. Sign in with that method and delete the other account first."
    )

    /// The signed-in account's email is not confirmed and nothing else proves its owner.
    public static let unprovenAccountCannotLink = ConciergeError(
        .forbidden, code: "email_not_verified",
        message:
            "Confirm your email address first: open the link we sent you. Until then no other sign-in method can be added to this account."
    )

    /// The account the proof belongs to has an unconfirmed email and nothing else proving its owner.
    public static let unprovenAccountCannotJoin = ConciergeError(
        .forbidden, code: "email_not_verified",
        message:
            "The other account's email address is not confirmed, so the two cannot be joined. Confirm it with the link we sent to it first."
    )

    static func invalidUsername() -> ConciergeError {
        ConciergeError(
            .invalidInput, code: "invalid_username",
            message: "A user name has 3 to 40 letters, digits, dots, dashes or underscores.")
    }

    public static let missingLogin = ConciergeError(
        .invalidInput, code: "missing_login", message: "Give an email address, a user name, or both.")
}
