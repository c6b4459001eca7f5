import Foundation

extension Rides {
    /// `POST /rides/sms-code-send` request body.
    public struct SMSCodeSendRequest: Codable, Sendable, Equatable {
        public var phone: String
        public init(phone: String) { self.phone = phone }
    }

    /// `POST /rides/sms-code-send` response.
    public struct SMSCodeSendResponse: Codable, Sendable, Equatable {
        public var success: Bool
        public var expiresInSeconds: Int
        public var resendAfterSeconds: Int
        public init(success: Bool = true, expiresInSeconds: Int, resendAfterSeconds: Int) {
            self.success = success
            self.expiresInSeconds = expiresInSeconds
            self.resendAfterSeconds = resendAfterSeconds
        }
    }

    /// `POST /rides/sms-code-verify` request body.
    public struct SMSCodeVerifyRequest: Codable, Sendable, Equatable {
        public var phone: String
        public var code: String
        public init(phone: String, code: String) {
            self.phone = phone
            self.code = code
        }
    }

    /// The signed-in rides customer as the apps see it.
    public struct AuthenticatedCustomer: Codable, Sendable, Equatable, Identifiable {
        public var id: String
        public var phone: String
        public var name: String?
        public var email: String?
        public init(id: String, phone: String, name: String? = nil, email: String? = nil) {
            self.id = id
            self.phone = phone
            self.name = name
            self.email = email
        }

        // `name` and `email` are always present on the wire, as `null` when unset.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(phone, forKey: .phone)
            try container.encode(name, forKey: .name)
            try container.encode(email, forKey: .email)
        }
    }

    /// `POST /rides/sms-code-verify` response.
    public struct SMSCodeVerifyResponse: Codable, Sendable, Equatable {
        public var success: Bool
        public var customer: AuthenticatedCustomer
        public var sessionToken: String
        /// ISO 8601 UTC, e.g. `2025-01-22T13:00:00.000Z`.
        public var expiresAt: String
        public init(success: Bool = true, customer: AuthenticatedCustomer, sessionToken: String, expiresAt: String) {
            self.success = success
            self.customer = customer
            self.sessionToken = sessionToken
            self.expiresAt = expiresAt
        }
    }

    /// `GET`/`PATCH /rides/me` response.
    public struct CustomerProfileResponse: Codable, Sendable, Equatable {
        public var success: Bool
        public var customer: AuthenticatedCustomer
        public init(success: Bool = true, customer: AuthenticatedCustomer) {
            self.success = success
            self.customer = customer
        }
    }

    /// `PATCH /rides/me` request body. A field left out stays as it is; `null` clears it.
    public struct UpdateProfileRequest: Codable, Sendable, Equatable {
        public enum Change: Sendable, Equatable {
            case keep
            case clear
            case set(String)
        }

        public var name: Change
        public var email: Change

        public init(name: Change = .keep, email: Change = .keep) {
            self.name = name
            self.email = email
        }

        private enum CodingKeys: String, CodingKey { case name, email }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func change(_ key: CodingKeys) throws -> Change {
                guard container.contains(key) else { return .keep }
                if try container.decodeNil(forKey: key) { return .clear }
                return .set(try container.decode(String.self, forKey: key))
            }
            self.name = try change(.name)
            self.email = try change(.email)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            func put(_ change: Change, _ key: CodingKeys) throws {
                switch change {
                case .keep: break
                case .clear: try container.encodeNil(forKey: key)
                case .set(let value): try container.encode(value, forKey: key)
                }
            }
            try put(name, .name)
            try put(email, .email)
        }
    }

    /// A plain `{"success": true}`.
    public struct SuccessResponse: Codable, Sendable, Equatable {
        public var success: Bool
        public init(success: Bool = true) { self.success = success }
    }
}
