/// The classes of car a customer can book. The raw values are the wire names.
public enum VehicleClass: String, Sendable, Codable, CaseIterable {
    case business
    case first
    case xl
}
