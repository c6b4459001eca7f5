/// A place at either end of a commute: coordinates as WGS 84 degrees, a label for people, and
/// optionally a place id (a rides place id is resolved to its coordinates by the server).
public struct CommutePlace: Codable, Sendable, Equatable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var label: String
    public var placeId: String?

    public init(latitude: Double, longitude: Double, label: String, placeId: String? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.label = label
        self.placeId = placeId
    }

    /// A place known by its rides place id only (`gz_iata_ZRH`, a Google place id): the server
    /// fills in its coordinates, and its name when `label` is empty. Until then the coordinates
    /// are not numbers.
    public init(placeId: String, label: String = "") {
        self.init(latitude: .nan, longitude: .nan, label: label, placeId: placeId)
    }

    private enum CodingKeys: String, CodingKey {
        case latitude, longitude, label, placeId
    }

    /// With a `placeId`, the coordinates and the label may be left out for the server to fill in.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        placeId = try container.decodeIfPresent(String.self, forKey: .placeId)
        if placeId == nil {
            latitude = try container.decode(Double.self, forKey: .latitude)
            longitude = try container.decode(Double.self, forKey: .longitude)
            label = try container.decode(String.self, forKey: .label)
        } else {
            latitude = try container.decodeIfPresent(Double.self, forKey: .latitude) ?? .nan
            longitude = try container.decodeIfPresent(Double.self, forKey: .longitude) ?? .nan
            label = try container.decodeIfPresent(String.self, forKey: .label) ?? ""
        }
    }
}

/// How and when a trip's leave-time notices go out.
public struct CommuteNotify: Codable, Sendable, Equatable, Hashable {
    public var enabled: Bool
    /// "Leave in N minutes" goes out this many minutes before the leave time.
    public var leadMinutes: Int
    /// Any of `push`, `email`, `sms`.
    public var channels: [String]

    public init(enabled: Bool = true, leadMinutes: Int = 10, channels: [String] = ["push"]) {
        self.enabled = enabled
        self.leadMinutes = leadMinutes
        self.channels = channels
    }
}

/// A saved commute: be at `destination` by `arrivalTime` (local `HH:MM` in `timeZone`) on each
/// of `repeatDays`.
public struct CommuteTrip: Codable, Sendable, Equatable, Hashable, Identifiable {
    public var id: String
    public var name: String
    public var origin: CommutePlace
    public var destination: CommutePlace
    public var arrivalTime: String
    /// Lower-case three-letter day names, Monday first: `["mon", "tue", …]`.
    public var repeatDays: [String]
    public var timeZone: String
    public var bufferMinutes: Int
    public var onTimeTarget: Double
    public var notify: CommuteNotify
    public var createdAt: String

    public init(
        id: String, name: String, origin: CommutePlace, destination: CommutePlace, arrivalTime: String,
        repeatDays: [String], timeZone: String, bufferMinutes: Int = 5, onTimeTarget: Double = 0.9,
        notify: CommuteNotify = CommuteNotify(), createdAt: String
    ) {
        self.id = id
        self.name = name
        self.origin = origin
        self.destination = destination
        self.arrivalTime = arrivalTime
        self.repeatDays = repeatDays
        self.timeZone = timeZone
        self.bufferMinutes = bufferMinutes
        self.onTimeTarget = onTimeTarget
        self.notify = notify
        self.createdAt = createdAt
    }

    /// The day names in wire order.
    public static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
}

/// The body of `POST /commute/trips` and `PATCH /commute/trips/{id}`: on create, `name`,
/// `origin`, `destination`, `arrivalTime` and `timeZone` are required; on update, only the
/// fields sent change.
public struct CommuteTripInput: Codable, Sendable, Equatable {
    public var name: String?
    public var origin: CommutePlace?
    public var destination: CommutePlace?
    public var arrivalTime: String?
    public var repeatDays: [String]?
    public var timeZone: String?
    public var bufferMinutes: Int?
    public var onTimeTarget: Double?
    public var notify: CommuteNotifyInput?

    public init(
        name: String? = nil, origin: CommutePlace? = nil, destination: CommutePlace? = nil,
        arrivalTime: String? = nil, repeatDays: [String]? = nil, timeZone: String? = nil, bufferMinutes: Int? = nil,
        onTimeTarget: Double? = nil, notify: CommuteNotifyInput? = nil
    ) {
        self.name = name
        self.origin = origin
        self.destination = destination
        self.arrivalTime = arrivalTime
        self.repeatDays = repeatDays
        self.timeZone = timeZone
        self.bufferMinutes = bufferMinutes
        self.onTimeTarget = onTimeTarget
        self.notify = notify
    }
}

/// `notify` in a trip body; fields left out keep their value (or default).
public struct CommuteNotifyInput: Codable, Sendable, Equatable {
    public var enabled: Bool?
    public var leadMinutes: Int?
    public var channels: [String]?

    public init(enabled: Bool? = nil, leadMinutes: Int? = nil, channels: [String]? = nil) {
        self.enabled = enabled
        self.leadMinutes = leadMinutes
        self.channels = channels
    }
}

/// `GET /commute/trips`.
public struct CommuteTripList: Codable, Sendable, Equatable {
    public var trips: [CommuteTrip]

    public init(trips: [CommuteTrip]) {
        self.trips = trips
    }
}
