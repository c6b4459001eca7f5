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
}
