extension Events {
    /// The seed's `User`, plus whether the email is verified (buying tickets needs it) and the
    /// phone of an account that signs in by SMS code (absent otherwise; `email` is then "").
    public struct User: Codable, Sendable, Equatable, Identifiable {
        public let id: String
        public let email: String
        public let name: String
        // swift-format-ignore: AlwaysUseLowerCamelCase
        // The seed spells it so.
        public let created_at: String
        public let emailVerified: Bool?
        public let phone: String?

        public init(
            id: String, email: String, name: String, created_at: String, emailVerified: Bool?, phone: String? = nil
        ) {
            self.id = id
            self.email = email
            self.name = name
            self.created_at = created_at
            self.emailVerified = emailVerified
            self.phone = phone
        }
    }

    /// The seed's `AuthResponse`: the user and a JWT access token valid for 7 days. Sign-up
    /// answers without either, only `message` ("check your mail"), the same whether or not the
    /// address had an account: the buyer signs in next.
    public struct AuthResponse: Codable, Sendable, Equatable {
        public let success: Bool
        public let user: User?
        public let token: String?
        public let error: String?
        public let message: String?

        public init(success: Bool, user: User?, token: String?, error: String? = nil, message: String? = nil) {
            self.success = success
            self.user = user
            self.token = token
            self.error = error
            self.message = message
        }
    }

    public struct SignUpRequest: Codable, Sendable, Equatable {
        public let email: String
        public let password: String
        public let name: String

        public init(email: String, password: String, name: String) {
            self.email = email
            self.password = password
            self.name = name
        }
    }

    public struct SignInRequest: Codable, Sendable, Equatable {
        public let email: String
        public let password: String

        public init(email: String, password: String) {
            self.email = email
            self.password = password
        }
    }

    /// `POST /api/auth/social`: an ID token from Google or Apple.
    public struct SocialSignInRequest: Codable, Sendable, Equatable {
        public let provider: String
        public let token: String
        public let email: String?
        public let name: String?

        public init(provider: String, token: String, email: String? = nil, name: String? = nil) {
            self.provider = provider
            self.token = token
            self.email = email
            self.name = name
        }
    }

    /// `POST /api/auth/id-token`: an ID token of any issuer the server trusts (`apple`, `google`,
    /// `oidc`), with the nonce the app put into it, if any.
    public struct IDTokenSignInRequest: Codable, Sendable, Equatable {
        public let provider: String
        public let idToken: String
        public let nonce: String?

        public init(provider: String, idToken: String, nonce: String? = nil) {
            self.provider = provider
            self.idToken = idToken
            self.nonce = nonce
        }
    }

    /// `POST /api/auth/phone/code`: sends a sign-in code by SMS.
    public struct PhoneCodeRequest: Codable, Sendable, Equatable {
        public let phone: String

        public init(phone: String) { self.phone = phone }
    }

    /// The answer to `POST /api/auth/phone/code`: how long the code lasts and when another may be sent.
    public struct PhoneCodeSent: Codable, Sendable, Equatable {
        public let success: Bool
        public let expiresInSeconds: Int
        public let resendAfterSeconds: Int

        public init(expiresInSeconds: Int, resendAfterSeconds: Int) {
            self.success = true
            self.expiresInSeconds = expiresInSeconds
            self.resendAfterSeconds = resendAfterSeconds
        }
    }

    /// `POST /api/auth/phone`: the phone and the code from the SMS.
    public struct PhoneSignInRequest: Codable, Sendable, Equatable {
        public let phone: String
        public let code: String

        public init(phone: String, code: String) {
            self.phone = phone
            self.code = code
        }
    }

    public struct VerifyEmailRequest: Codable, Sendable, Equatable {
        public let token: String
        public let email: String

        public init(token: String, email: String) {
            self.token = token
            self.email = email
        }
    }

    /// `resend-verification` and `forgot-password`.
    public struct EmailRequest: Codable, Sendable, Equatable {
        public let email: String

        public init(email: String) { self.email = email }
    }

    public struct ResetPasswordRequest: Codable, Sendable, Equatable {
        public let token: String
        public let password: String

        public init(token: String, password: String) {
            self.token = token
            self.password = password
        }
    }

    /// `{"success": true}`.
    public struct Success: Codable, Sendable, Equatable {
        public let success: Bool

        public init() { self.success = true }
    }
}
