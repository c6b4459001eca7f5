public import ConciergeModels
public import Foundation

/// What a trip may be, checked once when it is created or changed: every refusal is a 400
/// `invalid_request` naming the field, so nothing half-valid is stored.
public enum TripRules {
    public static let defaultDays = ["mon", "tue", "wed", "thu", "fri"]

    static func invalid(_ message: String) -> ConciergeError {
        ConciergeError(.invalidInput, code: "invalid_request", message: message)
    }

    /// A new trip from a create body.
    public static func newTrip(_ input: CommuteTripInput, id: String, createdAt: Date) throws -> CommuteTrip {
        guard let name = input.name else { throw invalid("The field 'name' is missing.") }
        guard let origin = input.origin else { throw invalid("The field 'origin' is missing.") }
        guard let destination = input.destination else { throw invalid("The field 'destination' is missing.") }
        guard let arrivalTime = input.arrivalTime else { throw invalid("The field 'arrivalTime' is missing.") }
        guard let timeZone = input.timeZone else { throw invalid("The field 'timeZone' is missing.") }
        let trip = CommuteTrip(
            id: id, name: name, origin: origin, destination: destination, arrivalTime: arrivalTime,
            repeatDays: input.repeatDays ?? defaultDays, timeZone: timeZone, bufferMinutes: input.bufferMinutes ?? 5,
            onTimeTarget: input.onTimeTarget ?? 0.9,
            notify: CommuteNotify(
                enabled: input.notify?.enabled ?? true, leadMinutes: input.notify?.leadMinutes ?? 10,
                channels: input.notify?.channels ?? ["push"]),
            createdAt: WireDate.string(from: createdAt))
        return try validated(trip)
    }

    /// `trip` with the fields of an update body applied.
    public static func updated(_ trip: CommuteTrip, with input: CommuteTripInput) throws -> CommuteTrip {
        var trip = trip
        if let name = input.name { trip.name = name }
        if let origin = input.origin { trip.origin = origin }
        if let destination = input.destination { trip.destination = destination }
        if let arrivalTime = input.arrivalTime { trip.arrivalTime = arrivalTime }
        if let repeatDays = input.repeatDays { trip.repeatDays = repeatDays }
        if let timeZone = input.timeZone { trip.timeZone = timeZone }
        if let bufferMinutes = input.bufferMinutes { trip.bufferMinutes = bufferMinutes }
        if let onTimeTarget = input.onTimeTarget { trip.onTimeTarget = onTimeTarget }
        if let notify = input.notify {
            if let enabled = notify.enabled { trip.notify.enabled = enabled }
            if let lead = notify.leadMinutes { trip.notify.leadMinutes = lead }
            if let channels = notify.channels { trip.notify.channels = channels }
        }
        return try validated(trip)
    }

    static func validated(_ input: CommuteTrip) throws -> CommuteTrip {
        var trip = input
        trip.name = trip.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(trip.name.count) else { throw invalid("'name' must be 1 to 100 characters.") }
        trip.origin = try place(trip.origin, field: "origin")
        trip.destination = try place(trip.destination, field: "destination")
        guard clockTime(trip.arrivalTime) != nil else {
            throw invalid("'arrivalTime' must be a local time HH:MM such as 08:30.")
        }
        guard timeZone(trip.timeZone) != nil else {
            throw invalid("'timeZone' must be an IANA time zone such as Europe/Zurich.")
        }
        let days = Set(trip.repeatDays)
        guard !trip.repeatDays.isEmpty, days.isSubset(of: CommuteTrip.dayNames), days.count == trip.repeatDays.count
        else { throw invalid("'repeatDays' must be 1 to 7 different days of mon, tue, wed, thu, fri, sat, sun.") }
        trip.repeatDays = CommuteTrip.dayNames.filter { days.contains($0) }
        guard (0...60).contains(trip.bufferMinutes) else { throw invalid("'bufferMinutes' must be 0 to 60.") }
        guard trip.onTimeTarget.isFinite, (0.5...0.99).contains(trip.onTimeTarget) else {
            throw invalid("'onTimeTarget' must be between 0.5 and 0.99.")
        }
        guard (0...120).contains(trip.notify.leadMinutes) else {
            throw invalid("'notify.leadMinutes' must be 0 to 120.")
        }
        let channels = Set(trip.notify.channels)
        guard channels.isSubset(of: ["push", "email", "sms"]), channels.count == trip.notify.channels.count else {
            throw invalid("'notify.channels' must be different channels of push, email, sms.")
        }
        try route(from: trip.origin, to: trip.destination)
        return trip
    }

    /// Coordinates on the earth and a label a person can read.
    public static func place(_ place: CommutePlace, field: String) throws -> CommutePlace {
        guard place.latitude.isFinite, (-90...90).contains(place.latitude) else {
            throw invalid("'\(field).latitude' must be between -90 and 90.")
        }
        guard place.longitude.isFinite, (-180...180).contains(place.longitude) else {
            throw invalid("'\(field).longitude' must be between -180 and 180.")
        }
        var place = place
        place.label = place.label.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(place.label.count) else {
            throw invalid("'\(field).label' must be 1 to 200 characters.")
        }
        if let id = place.placeId, id.count > 300 { throw invalid("'\(field).placeId' is too long.") }
        return place
    }

    /// Two places a car can drive between: apart, and not a continent away.
    public static func route(from origin: CommutePlace, to destination: CommutePlace) throws {
        let km = Coordinate(latitude: origin.latitude, longitude: origin.longitude)
            .distanceKilometers(to: Coordinate(latitude: destination.latitude, longitude: destination.longitude))
        guard km >= 0.2 else {
            throw ConciergeError.routeFailed("the origin and the destination are the same place.")
        }
        guard km <= 750 else { throw ConciergeError.routeFailed("the trip would be longer than 1,000 km by road.") }
    }

    /// `HH:MM` as (hour, minute).
    public static func clockTime(_ text: String) -> (hour: Int, minute: Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return (hour, minute)
    }

    /// An ISO 8601 instant whose every field is in range. Foundation's parser rolls a 25th hour
    /// or a 61st minute over into the next day or hour; a person who sends one made a mistake.
    public static func instant(_ text: String) -> Date? {
        guard let date = WireDate.date(from: text) else { return nil }
        let fields = text.prefix(19).split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
        guard fields.count == 6 else { return nil }
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = .gmt
        let written = DateComponents(
            year: fields[0], month: fields[1], day: fields[2], hour: fields[3], minute: fields[4], second: fields[5])
        guard (0...23).contains(fields[3]), (0...59).contains(fields[4]), (0...59).contains(fields[5]),
            written.isValidDate(in: gregorian)
        else { return nil }
        return date
    }

    /// Only IANA names (`Europe/Zurich`, `UTC`); abbreviations like `CET` are ambiguous.
    public static func timeZone(_ name: String) -> TimeZone? {
        guard name.count <= 64, name == "UTC" || name.contains("/") else { return nil }
        return TimeZone(identifier: name)
    }
}
