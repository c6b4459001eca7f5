/// A customer's booking request, as received (the seed's `BookingRequest`).
public struct BookingRequestInput: Sendable, Equatable {
    public let pickupPlaceId: String
    public let pickupDescription: String
    public let destinationPlaceId: String
    public let destinationDescription: String
    public let dateTime: String
    public let passengers: Int
    public let vehicleClass: String
    public let flightNumber: String?

    public init(
        pickupPlaceId: String, pickupDescription: String, destinationPlaceId: String, destinationDescription: String,
        dateTime: String, passengers: Int, vehicleClass: String, flightNumber: String?
    ) {
        self.pickupPlaceId = pickupPlaceId
        self.pickupDescription = pickupDescription
        self.destinationPlaceId = destinationPlaceId
        self.destinationDescription = destinationDescription
        self.dateTime = dateTime
        self.passengers = passengers
        self.vehicleClass = vehicleClass
        self.flightNumber = flightNumber
    }

    /// A stable fingerprint of the request, to tell a retry from a different request under the
    /// same `Idempotency-Key`.
    public var fingerprint: String {
        [
            pickupPlaceId, pickupDescription, destinationPlaceId, destinationDescription, dateTime, String(passengers),
            vehicleClass, flightNumber ?? "",
        ].joined(separator: "\u{1F}")
    }
}
