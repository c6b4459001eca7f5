public import ConciergeKit
import Foundation

/// `concierge commute …`: trips, leave times and observations through ConciergeKit, as tables
/// or `--json`. Signs in with the session `concierge rides login` saved (any Concierge session
/// works for commute) or a token given on the command line.
public struct CommuteCommands: Sendable {
    let api: CommuteAPI
    let json: Bool

    public init(client: ConciergeClient, token: String?, json: Bool) {
        self.api = CommuteAPI(client: client) { token }
        self.json = json
    }

    /// The parameters of `trips add`.
    public struct NewTrip: Sendable {
        public var name: String
        public var from: String
        public var to: String
        public var arrive: String
        public var days: String?
        public var timeZone: String
        public var buffer: Int?

        public init(
            name: String, from: String, to: String, arrive: String, days: String?, timeZone: String, buffer: Int?
        ) {
            self.name = name
            self.from = from
            self.to = to
            self.arrive = arrive
            self.days = days
            self.timeZone = timeZone
            self.buffer = buffer
        }
    }

    public func add(_ trip: NewTrip) async throws -> String {
        let created = try await api.createTrip(
            CommuteTripInput(
                name: trip.name, origin: try Self.place(trip.from), destination: try Self.place(trip.to),
                arrivalTime: trip.arrive,
                repeatDays: trip.days.map {
                    $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
                },
                timeZone: trip.timeZone, bufferMinutes: trip.buffer))
        return json ? try Self.encode(created) : "Saved \(created.id): \(describe(created))"
    }

    public func list() async throws -> String {
        let trips = try await api.trips()
        if json { return try Self.encode(CommuteTripList(trips: trips)) }
        guard !trips.isEmpty else { return "No trips yet — add one with `concierge commute trips add`." }
        return Table(
            headers: ["ID", "NAME", "FROM", "TO", "ARRIVE", "DAYS"],
            rows: trips.map {
                [
                    $0.id, $0.name, $0.origin.label, $0.destination.label, $0.arrivalTime,
                    $0.repeatDays.joined(separator: ","),
                ]
            }
        ).render()
    }

    public func show(_ id: String) async throws -> String {
        let trip = try await api.trip(id: id)
        return json ? try Self.encode(trip) : "\(trip.id): \(describe(trip))"
    }

    public func delete(_ id: String) async throws -> String {
        try await api.deleteTrip(id: id)
        return json ? #"{"deleted": "\#(id)"}"# : "Deleted \(id)."
    }

    public func next(_ id: String, date: String?) async throws -> String {
        let plan = try await api.recommendation(tripID: id, date: date)
        if json { return try Self.encode(plan) }
        var lines = [
            "Leave at \(plan.leaveAt) to arrive by \(plan.arriveBy).",
            "Travel \(plan.travelMinutes) min (\(plan.route.provider), \(plan.source)), buffer \(plan.bufferMinutes), "
                + "weather \(plan.weatherMinutes), personal \(plan.personalMinutes); on time \(Int(plan.onTimeProbability * 100)) %.",
        ]
        lines += plan.factors.map { "  \($0.code): \($0.minutes) min — \($0.label)" }
        return lines.joined(separator: "\n")
    }

    public func observe(_ id: String, departed: String, arrived: String) async throws -> String {
        guard let departedAt = WireDate.date(from: departed), let arrivedAt = WireDate.date(from: arrived) else {
            throw CLIError("times must be ISO 8601, e.g. 2027-01-15T07:40:00Z")
        }
        let observation = try await api.observe(tripID: id, departedAt: departedAt, arrivedAt: arrivedAt)
        return json
            ? try Self.encode(observation)
            : "Recorded \(observation.travelMinutes) min (the planner expected \(observation.expectedMinutes))."
    }

    private func describe(_ trip: CommuteTrip) -> String {
        "\(trip.name), \(trip.origin.label) → \(trip.destination.label) by \(trip.arrivalTime) "
            + "(\(trip.timeZone)) on \(trip.repeatDays.joined(separator: ","))"
    }

    /// `47.3779,8.5403` or `47.3779,8.5403,Zürich HB`.
    static func place(_ text: String) throws -> CommutePlace {
        let parts = text.split(separator: ",", maxSplits: 2).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count >= 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else {
            throw CLIError("'\(text)' is not a place — write latitude,longitude[,label], e.g. 47.3779,8.5403,Zürich HB")
        }
        return CommutePlace(latitude: latitude, longitude: longitude, label: parts.count > 2 ? parts[2] : text)
    }

    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
