extension Stays {
    /// `POST /stays/user/register`.
    public struct RegisterRequest: Codable, Sendable, Equatable {
        public var username: String
        public var firstName: String
        public var lastName: String
        public var email: String
        public var phone: String
        public var password: String

        public init(
            username: String, firstName: String, lastName: String, email: String, phone: String, password: String
        ) {
            self.username = username
            self.firstName = firstName
            self.lastName = lastName
            self.email = email
            self.phone = phone
            self.password = password
        }
    }

    /// `POST /stays/login`: `username` may be the user name or the email address.
    public struct LoginRequest: Codable, Sendable, Equatable {
        public var username: String
        public var password: String

        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    /// `POST /stays/login/id-token`: an ID token of any issuer the server trusts (`apple`,
    /// `google`, `oidc`), with the nonce the app put into it, if any.
    public struct IDTokenLoginRequest: Codable, Sendable, Equatable {
        public var provider: String
        public var idToken: String
        public var nonce: String?

        public init(provider: String, idToken: String, nonce: String? = nil) {
            self.provider = provider
            self.idToken = idToken
            self.nonce = nonce
        }
    }

    /// `POST /stays/login/phone/code`: sends a sign-in code by SMS.
    public struct PhoneCodeRequest: Codable, Sendable, Equatable {
        public var phone: String

        public init(phone: String) { self.phone = phone }
    }

    /// The data of `POST /stays/login/phone/code`'s answer: how long the code lasts, and when
    /// another may be sent.
    public struct PhoneCodeSent: Codable, Sendable, Equatable {
        public let expiresInSeconds: Int
        public let resendAfterSeconds: Int

        public init(expiresInSeconds: Int, resendAfterSeconds: Int) {
            self.expiresInSeconds = expiresInSeconds
            self.resendAfterSeconds = resendAfterSeconds
        }
    }

    /// `POST /stays/login/phone`: the phone and the code from the SMS.
    public struct PhoneLoginRequest: Codable, Sendable, Equatable {
        public var phone: String
        public var code: String

        public init(phone: String, code: String) {
            self.phone = phone
            self.code = code
        }
    }

    /// The seed's `User`: who signed in, and the tokens. `expiresIn` is the access token's
    /// lifetime in seconds.
    public struct User: Codable, Sendable, Equatable {
        public let username: String
        public let guestId: Int64
        public let token: String
        public let refreshToken: String
        public let expiresIn: Int

        public init(username: String, guestId: Int64, token: String, refreshToken: String, expiresIn: Int) {
            self.username = username
            self.guestId = guestId
            self.token = token
            self.refreshToken = refreshToken
            self.expiresIn = expiresIn
        }
    }

    /// `POST /stays/auth/refresh`.
    public struct RefreshRequest: Codable, Sendable, Equatable {
        public var refreshToken: String

        public init(refreshToken: String) {
            self.refreshToken = refreshToken
        }
    }

    public struct Profile: Codable, Sendable, Equatable {
        public let username: String
        public let firstName: String
        public let lastName: String
        public let email: String
        public let phone: String
        public let guestId: Int

        public init(username: String, firstName: String, lastName: String, email: String, phone: String, guestId: Int) {
            self.username = username
            self.firstName = firstName
            self.lastName = lastName
            self.email = email
            self.phone = phone
            self.guestId = guestId
        }
    }

    /// `PATCH /stays/user/{username}`: the fields to change; absent ones stay. The email is a
    /// sign-in method of the account and changes through `/account`, not here.
    public struct ProfileUpdate: Codable, Sendable, Equatable {
        public var firstName: String?
        public var lastName: String?
        public var phone: String?

        public init(firstName: String? = nil, lastName: String? = nil, phone: String? = nil) {
            self.firstName = firstName
            self.lastName = lastName
            self.phone = phone
        }
    }
}
