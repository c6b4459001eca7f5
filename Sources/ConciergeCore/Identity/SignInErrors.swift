/// The errors of SMS-code sign-in, worded for the person holding the phone.
extension ConciergeError {
    static func invalidCodeFormat(length: Int) -> ConciergeError {
        ConciergeError(
            .invalidInput, code: "invalid_code",
            message: "The code is the \(length) digits from the SMS we sent you.")
    }

    /// Says neither how many guesses are left nor whether a code is pending: both would tell a
    /// stranger probing the number that its owner is signing in.
    static let wrongCode = ConciergeError(
        .invalidInput, code: "invalid_code",
        message: "That code is not right. Check the SMS and try again, or request a new code.")

    static func smsRegionNotServed(_ regions: String) -> ConciergeError {
        ConciergeError(
            .invalidInput, code: "invalid_phone",
            message: "We cannot send codes to numbers from this country. Use a number from \(regions).")
    }

    public static let codeExpired = ConciergeError(
        .invalidInput, code: "code_expired",
        message: "This code has expired or was replaced by a newer one. Request a new code.")

    public static let tooManyAttempts = ConciergeError(
        .tooManyRequests(retryAfterSeconds: nil), code: "too_many_attempts",
        message: "Too many wrong codes. This code no longer works; request a new one.")

    static func resendTooSoon(retryAfter: Int) -> ConciergeError {
        ConciergeError(
            .tooManyRequests(retryAfterSeconds: retryAfter), code: "resend_too_soon",
            message: "A code was just sent. You can request another one in \(Duration.spoken(seconds: retryAfter)).")
    }

    static func rateLimited(_ message: String, retryAfter: Int) -> ConciergeError {
        ConciergeError(
            .tooManyRequests(retryAfterSeconds: retryAfter), code: "rate_limited",
            message: "\(message) Try again in \(Duration.spoken(seconds: retryAfter)).")
    }

    /// Says nothing about how to sign in: each vertical signs in its own way, and its error
    /// renderer adds the sentence that says how (`ErrorRenderer.signIn`).
    public static let sessionExpired = ConciergeError(
        .unauthorized, code: "session_expired", message: "Your session has expired or you are not signed in.")
}

extension Duration {
    /// "25 seconds", "12 minutes", "3 hours": rounded up, so the person never retries too early.
    static func spoken(seconds: Int) -> String {
        func unit(_ value: Int, _ name: String) -> String { "\(value) \(name)\(value == 1 ? "" : "s")" }
        if seconds < 60 { return unit(max(seconds, 1), "second") }
        if seconds < 3600 { return unit((seconds + 59) / 60, "minute") }
        return unit((seconds + 3599) / 3600, "hour")
    }
}
