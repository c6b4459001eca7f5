extension Stays {
    /// The seed's wrapper around every answer, success or error. The seed's API spells
    /// `messsage` with three s; both spellings are sent so the unchanged app and new clients
    /// decode, and either is accepted when decoding.
    public struct APIResponse<T: Codable & Sendable>: Codable, Sendable {
        public let data: T?
        public let status: Int
        public let message: String
        public let errorType: String?
        /// Epoch milliseconds of the answer.
        public let timeStamp: Int64

        public init(data: T?, status: Int, message: String, errorType: String?, timeStamp: Int64) {
            self.data = data
            self.status = status
            self.message = message
            self.errorType = errorType
            self.timeStamp = timeStamp
        }

        enum CodingKeys: String, CodingKey {
            case data, status, messsage, message, errorType, timeStamp
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            data = try container.decodeIfPresent(T.self, forKey: .data)
            status = try container.decode(Int.self, forKey: .status)
            message =
                try container.decodeIfPresent(String.self, forKey: .message)
                ?? container.decodeIfPresent(String.self, forKey: .messsage) ?? ""
            errorType = try container.decodeIfPresent(String.self, forKey: .errorType)
            timeStamp = try container.decode(Int64.self, forKey: .timeStamp)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            // `data: null` is part of the contract, so it is written rather than left out.
            try container.encode(data, forKey: .data)
            try container.encode(status, forKey: .status)
            try container.encode(message, forKey: .messsage)
            try container.encode(message, forKey: .message)
            try container.encode(errorType, forKey: .errorType)
            try container.encode(timeStamp, forKey: .timeStamp)
        }
    }

    /// `data` of a validation error: one message per field a person can act on.
    public struct ValidationFields: Codable, Sendable, Equatable {
        public let fields: [String: String]

        public init(fields: [String: String]) {
            self.fields = fields
        }
    }

    /// The envelope's `data` when it carries nothing (errors other than validation).
    public struct Empty: Codable, Sendable, Equatable {
        public init() {}
    }
}
