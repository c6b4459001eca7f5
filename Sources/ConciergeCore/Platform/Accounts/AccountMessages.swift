/// The texts of account emails. The link carries the token; the web front end and the apps
/// both open it and post the token to `/account/email/verify` or `/account/password/reset`.
enum AccountMessages {
    static func message(for token: AccountToken, plainToken: String, publicURL: String) -> (
        subject: String, body: String
    ) {
        switch token.purpose {
        case .verifyEmail:
            (
                "Confirm your email address",
                """
                Please confirm that \(token.identifier) is your email address:

                \(publicURL)/account/verify-email?token=\(plainToken)

                The link works once and for 24 hours. If you did not create an account, ignore this email.
                """
            )
        case .resetPassword:
            (
                "Reset your password",
                """
                Someone asked to reset the password of the account with \(token.identifier). To choose a new one, open:

                \(publicURL)/account/reset-password?token=\(plainToken)

                The link works once and for one hour. If it was not you, ignore this email; your password stays as it is.
                """
            )
        }
    }

    /// To the owner of an address someone tried to register again (sign-up answers the same
    /// whether or not the address is taken, so the person learns it here, in their mailbox).
    static func registrationAttempt(email: String, publicURL: String) -> (subject: String, body: String) {
        (
            "Someone tried to register with your email address",
            """
            Someone tried to create an account with \(email), which already has one, so nothing was created.

            If it was you: sign in at \(publicURL)/account/sign-in, or choose a new password at \(publicURL)/account/forgot-password.
            If it was not you, you need not do anything; your account is unchanged.
            """
        )
    }

    /// To an address proven for the first time on an account that already had sign-in methods
    /// and sessions: those were made before anyone proved the mailbox, so they were removed.
    static func unprovenMethodsRemoved(email: String, removed: [String], publicURL: String) -> (
        subject: String, body: String
    ) {
        let list = removed.map { "- \($0)" }.joined(separator: "\n")
        return (
            "We removed sign-in methods nobody had proven",
            """
            \(email) is now confirmed as the address of your account. Until now nobody had proven that this mailbox belongs to the account, so everything made on it before was removed, in case someone else created it with your address:

            \(list)
            - every signed-in device and app

            To sign in with a password, choose one at \(publicURL)/account/forgot-password. Add other sign-in methods again on \(publicURL)/account.
            """
        )
    }
}
