/// The routes whose answers the sign-in metrics count, by route template. A template missing
/// from the router is caught by `MetricsHTTPTests`.
enum MetricsSignInRoutes {
    enum Purpose: Equatable {
        /// Sends a sign-in code by SMS.
        case codeSending
        /// Signs in; `method` is sms_code, password or social.
        case signIn(method: String)
    }

    static let purpose: [String: Purpose] = [
        "/rides/sms-code-send": .codeSending,
        "/rides/sms-code-verify": .signIn(method: "sms_code"),
        "/account/sign-in": .signIn(method: "password"),
        "/account/sign-in/id-token": .signIn(method: "social"),
        "/events/api/auth/signin": .signIn(method: "password"),
        "/events/api/auth/social": .signIn(method: "social"),
        "/stays/login": .signIn(method: "password"),
    ]
}
