extension Events {
    /// `POST /api/checkin` (with a scanner token or the admin token): a ticket's signed scan code
    /// (`qrCode`, the booking's `CEVT1.…` or one seat's `CEVS1.…`) or its `secret`, the show the
    /// door is admitting to, and the gate (the server says `main` when absent).
    public struct CheckInRequest: Codable, Sendable, Equatable {
        public let qrCode: String?
        public let secret: String?
        public let showId: String
        public let gate: String?

        public init(qrCode: String? = nil, secret: String? = nil, showId: String, gate: String? = nil) {
            self.qrCode = qrCode
            self.secret = secret
            self.showId = showId
            self.gate = gate
        }
    }

    /// The door's answer. A refusal is an answer too (200 with its `result`), so a scanner can
    /// show why without parsing errors; only a bad request or a bad token is an HTTP error.
    public struct CheckInResponse: Codable, Sendable, Equatable {
        public enum Result: String, Codable, Sendable, CaseIterable {
            /// Admitted now, once.
            case ok
            /// Admitted before (`firstScannedAt` says when).
            case alreadyUsed = "already_used"
            /// Forged, unknown or not paid for.
            case invalid
            /// A real ticket of another show.
            case wrongShow = "wrong_show"
            /// The booking was cancelled or refunded.
            case cancelled
        }

        public let result: Result
        /// The seats it covers, e.g. `Stalls A9, Stalls A10`.
        public let seat: String?
        /// The buyer's email.
        public let attendee: String?
        /// ISO 8601, UTC; on `already_used`.
        public let firstScannedAt: String?

        /// Whether the holder may go in.
        public var admitted: Bool { result == .ok }

        public init(result: Result, seat: String? = nil, attendee: String? = nil, firstScannedAt: String? = nil) {
            self.result = result
            self.seat = seat
            self.attendee = attendee
            self.firstScannedAt = firstScannedAt
        }
    }
}
