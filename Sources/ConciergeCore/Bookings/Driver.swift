/// The chauffeur assigned to a ride, as the customer sees them.
public struct Driver: Sendable, Equatable {
    public let name: String
    public let phone: String
    public let vehicle: String
    public let plate: String

    public init(name: String, phone: String, vehicle: String, plate: String) {
        self.name = name
        self.phone = phone
        self.vehicle = vehicle
        self.plate = plate
    }
}

/// The ride's progress after confirmation, and which step may follow which.
public enum RideProgress {
    public static let next: [BookingState: Set<BookingState>] = [
        .confirmed: [.driverAssigned],
        .driverAssigned: [.driverAssigned, .enRoute, .noShow],
        .enRoute: [.arrived, .noShow],
        .arrived: [.onBoard, .noShow],
        .onBoard: [.completed],
    ]

    /// The states a ride can move to `target` from.
    public static func predecessors(of target: BookingState) -> Set<BookingState> {
        Set(next.filter { $0.value.contains(target) }.map(\.key))
    }
}
