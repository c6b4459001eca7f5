import ConciergeCore
import ConciergeModels
import Foundation

/// The JSON of the platform account routes. Platform-level types: verticals with contracts of
/// their own (events' `AuthResponse`, stays' `APIResponse`) wrap the same services in their shapes.
enum AccountWire {
    struct SignUpRequest: Decodable {
        let email: String?
        let username: String?
        let password: String
        let name: String?
    }

    struct SignInRequest: Decodable {
        let login: String
        let password: String
    }

    struct IDTokenSignInRequest: Decodable {
        let provider: String
        let idToken: String
        let nonce: String?
    }

    struct RefreshRequest: Decodable {
        let refreshToken: String
    }

    struct TokenRequest: Decodable {
        let token: String
    }

    struct EmailRequest: Decodable {
        let email: String
    }

    struct ResetRequest: Decodable {
        let token: String
        let password: String
    }

    /// Exactly one proof: `password` with `login`, `idToken` with `provider`, or `phone` with `code`.
    struct LinkRequest: Decodable {
        let login: String?
        let password: String?
        let provider: String?
        let idToken: String?
        let nonce: String?
        let phone: String?
        let code: String?
    }

    struct Method: Encodable {
        let kind: String
        let identifier: String
        let verified: Bool
        let hasPassword: Bool
    }

    struct Account: Encodable {
        let id: String
        let name: String?
        let createdAt: String
        let methods: [Method]
        let verifiedEmails: [String]
        let verifiedPhones: [String]

        init(_ account: AccountOverview) {
            id = account.id
            name = account.displayName
            createdAt = WireDate.string(from: account.createdAt)
            methods = account.methods.map {
                Method(
                    kind: $0.kind.rawValue, identifier: $0.identifier, verified: $0.verified,
                    hasPassword: $0.hasPassword)
            }
            verifiedEmails = account.verifiedEmails
            verifiedPhones = account.verifiedPhones
        }
    }

    struct AccountResponse: Encodable {
        let success = true
        let account: Account
    }

    /// The answer to every sign-up, whether or not the address had an account already (the
    /// owner of a taken one is mailed): no session, so that nothing tells the two apart. The
    /// client signs in next, with the same login and password.
    struct SignUpAcceptedResponse: Encodable {
        let success = true
        let status = "check_your_mail"
        let message: String

        init(email: Bool) {
            message =
                email
                ? "Check your mail: we sent a link to confirm your address. Sign in with your email or user name and password."
                : "Sign in with your user name and password."
        }
    }

    /// A new or refreshed session: a 15-minute JWT access token and a rotating refresh token.
    struct SessionResponse: Encodable {
        let success = true
        let account: Account?
        let accessToken: String
        let tokenType = "Bearer"
        let expiresAt: String
        let refreshToken: String?

        init(account: AccountOverview?, session: IssuedSession) {
            self.account = account.map(Account.init)
            accessToken = session.accessToken
            expiresAt = WireDate.string(from: session.accessExpiresAt)
            refreshToken = session.refreshToken
        }
    }

    static func provider(_ raw: String) throws -> IdentityProvider {
        guard let provider = IdentityProvider(rawValue: raw.lowercased()) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_provider", message: "The provider must be apple, google or oidc.")
        }
        return provider
    }
}
