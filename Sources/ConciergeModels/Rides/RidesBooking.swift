extension Rides {
    /// A pickup or destination in a booking request: the place ID from autocomplete and the text
    /// the customer saw.
    public struct BookingLocation: Codable, Sendable, Equatable {
        public var placeId: String
        public var description: String
        public init(placeId: String, description: String) {
            self.placeId = placeId
            self.description = description
        }
    }

    /// `POST /rides/app-book` request body (the rides app's `BookingRequest`).
    public struct BookingRequest: Codable, Sendable, Equatable {
        public var pickup: BookingLocation
        public var destination: BookingLocation
        /// ISO 8601 UTC, e.g. `2025-01-15T13:00:00.000Z`.
        public var dateTime: String
        /// Defaults to 1.
        public var passengers: Int?
        /// "business", "first" or "xl".
        public var vehicleClass: String
        public var flightNumber: String?

        public init(
            pickup: BookingLocation, destination: BookingLocation, dateTime: String, passengers: Int? = nil,
            vehicleClass: String, flightNumber: String? = nil
        ) {
            self.pickup = pickup
            self.destination = destination
            self.dateTime = dateTime
            self.passengers = passengers
            self.vehicleClass = vehicleClass
            self.flightNumber = flightNumber
        }
    }

    /// `POST /rides/app-book` response (the rides app's `BookingResponse`).
    public struct BookingResponse: Codable, Sendable, Equatable {
        public var success: Bool
        /// The numeric part of the reference.
        public var tripRequestId: Int?
        /// e.g. "VRM-123456".
        public var quoteReference: String?
        public var priceCents: Int?
        public var priceFormatted: String?
        public var distanceKm: Double?
        public var durationMinutes: Int?
        /// Where the customer pays.
        public var checkoutUrl: String?
        public var error: String?

        public init(
            success: Bool, tripRequestId: Int? = nil, quoteReference: String? = nil, priceCents: Int? = nil,
            priceFormatted: String? = nil, distanceKm: Double? = nil, durationMinutes: Int? = nil,
            checkoutUrl: String? = nil, error: String? = nil
        ) {
            self.success = success
            self.tripRequestId = tripRequestId
            self.quoteReference = quoteReference
            self.priceCents = priceCents
            self.priceFormatted = priceFormatted
            self.distanceKm = distanceKm
            self.durationMinutes = durationMinutes
            self.checkoutUrl = checkoutUrl
            self.error = error
        }
    }

    /// A booking as its customer sees it in history and detail.
    public struct BookingSummary: Codable, Sendable, Equatable, Identifiable {
        public var reference: String
        /// awaiting_payment, confirmed, driver_assigned, en_route, arrived, on_board, completed,
        /// expired, cancelled, refunded, no_show.
        public var status: String
        public var pickup: BookingLocation
        public var destination: BookingLocation
        public var pickupDatetime: String
        public var passengers: Int
        public var vehicleClass: String
        public var flightNumber: String?
        public var priceCents: Int
        public var priceFormatted: String
        public var distanceKm: Double
        public var durationMinutes: Int
        /// Present while the booking waits for payment.
        public var checkoutUrl: String?
        /// Until when an unpaid booking can be paid.
        public var quoteExpiresAt: String
        public var createdAt: String
        /// The chauffeur, once assigned.
        public var driver: DriverDetails?

        public var id: String { reference }

        public init(
            reference: String, status: String, pickup: BookingLocation, destination: BookingLocation,
            pickupDatetime: String, passengers: Int, vehicleClass: String, flightNumber: String?, priceCents: Int,
            priceFormatted: String, distanceKm: Double, durationMinutes: Int, checkoutUrl: String?,
            quoteExpiresAt: String, createdAt: String, driver: DriverDetails? = nil
        ) {
            self.reference = reference
            self.status = status
            self.pickup = pickup
            self.destination = destination
            self.pickupDatetime = pickupDatetime
            self.passengers = passengers
            self.vehicleClass = vehicleClass
            self.flightNumber = flightNumber
            self.priceCents = priceCents
            self.priceFormatted = priceFormatted
            self.distanceKm = distanceKm
            self.durationMinutes = durationMinutes
            self.checkoutUrl = checkoutUrl
            self.quoteExpiresAt = quoteExpiresAt
            self.createdAt = createdAt
            self.driver = driver
        }
    }

    /// `GET /rides/bookings` response: newest first, a page at a time.
    public struct BookingListResponse: Codable, Sendable, Equatable {
        public var success: Bool
        public var bookings: [BookingSummary]
        /// Pass as `offset` for the next page; nil on the last page.
        public var nextOffset: Int?
        public init(success: Bool = true, bookings: [BookingSummary], nextOffset: Int?) {
            self.success = success
            self.bookings = bookings
            self.nextOffset = nextOffset
        }
    }

    /// `GET /rides/bookings/{ref}` and `POST …/cancel` response.
    public struct BookingDetailResponse: Codable, Sendable, Equatable {
        public var success: Bool
        public var booking: BookingSummary
        public init(success: Bool = true, booking: BookingSummary) {
            self.success = success
            self.booking = booking
        }
    }

    /// The chauffeur of a ride.
    public struct DriverDetails: Codable, Sendable, Equatable {
        public var name: String
        public var phone: String
        public var vehicle: String
        public var plate: String
        public init(name: String, phone: String, vehicle: String, plate: String) {
            self.name = name
            self.phone = phone
            self.vehicle = vehicle
            self.plate = plate
        }
    }

    /// One entry of a booking's event log (admin API).
    public struct BookingEventResponse: Codable, Sendable, Equatable {
        public var at: String
        public var type: String
        public var actor: String
        public var detail: String
        public init(at: String, type: String, actor: String, detail: String) {
            self.at = at
            self.type = type
            self.actor = actor
            self.detail = detail
        }
    }

    /// `GET /admin/bookings/{ref}` response: the booking and its event log.
    public struct AdminBookingResponse: Codable, Sendable, Equatable {
        public var success: Bool
        public var booking: BookingSummary
        public var customerId: String
        public var events: [BookingEventResponse]
        public init(success: Bool = true, booking: BookingSummary, customerId: String, events: [BookingEventResponse]) {
            self.success = success
            self.booking = booking
            self.customerId = customerId
            self.events = events
        }
    }

    /// `POST /admin/bookings/{ref}/status` request body.
    public struct RideStatusUpdate: Codable, Sendable, Equatable {
        /// driver_assigned, en_route, arrived, on_board, completed or no_show.
        public var status: String
        /// Required for driver_assigned.
        public var driver: DriverDetails?
        public init(status: String, driver: DriverDetails? = nil) {
            self.status = status
            self.driver = driver
        }
    }
}
