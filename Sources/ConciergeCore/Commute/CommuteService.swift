public import ConciergeModels
public import Foundation

/// The commute vertical's use cases: trips of one person, their recommendations and
/// observations, `/predict`, devices and the notice history. Another person's trip is "not
/// found", never "forbidden", so ids cannot be probed.
public struct CommuteService: Sendable {
    let store: any CommuteStore
    public let planner: LeavePlanner
    public let calendar: TripCalendar
    let clock: any TimeSource
    let random: any RandomSource
    /// Resolves a rides place id to its coordinates (the gazetteer offline, Google with a key);
    /// nil: place ids are kept as sent and coordinates are required.
    let places: (any PlacesProvider)?

    public init(
        store: any CommuteStore, planner: LeavePlanner, calendar: TripCalendar, clock: any TimeSource,
        random: any RandomSource, places: (any PlacesProvider)? = nil
    ) {
        self.store = store
        self.planner = planner
        self.calendar = calendar
        self.clock = clock
        self.random = random
        self.places = places
    }

    static let tripNotFound = ConciergeError(
        .notFound, code: "trip_not_found", message: "There is no such trip. List your trips with GET /commute/trips.")

    // MARK: Trips

    public func createTrip(accountID: String, input: CommuteTripInput) async throws -> CommuteTrip {
        let now = clock.now
        let input = try await resolved(input)
        let trip = try TripRules.newTrip(input, id: random.identifier(prefix: "trp"), createdAt: now)
        // Checked at once: a trip made shortly before its leave time still gets its notices.
        try await store.insertTrip(StoredTrip(accountID: accountID, trip: trip), nextCheckAt: now)
        return trip
    }

    public func trips(accountID: String) async throws -> [CommuteTrip] {
        try await store.trips(accountID: accountID).map(\.trip)
    }

    public func trip(id: String, accountID: String) async throws -> CommuteTrip {
        guard let stored = try await store.trip(id: id), stored.accountID == accountID else { throw Self.tripNotFound }
        return stored.trip
    }

    public func updateTrip(id: String, accountID: String, input: CommuteTripInput) async throws -> CommuteTrip {
        let current = try await trip(id: id, accountID: accountID)
        let updated = try TripRules.updated(current, with: try await resolved(input))
        try await store.updateTrip(StoredTrip(accountID: accountID, trip: updated), nextCheckAt: clock.now)
        return updated
    }

    public func deleteTrip(id: String, accountID: String) async throws {
        guard try await store.deleteTrip(id: id, accountID: accountID) else { throw Self.tripNotFound }
    }

    /// The input with each end that names a place id set to that place's coordinates.
    func resolved(_ input: CommuteTripInput) async throws -> CommuteTripInput {
        var input = input
        if let origin = input.origin { input.origin = try await resolved(origin, field: "origin") }
        if let destination = input.destination {
            input.destination = try await resolved(destination, field: "destination")
        }
        return input
    }

    /// A rides place id wins over the coordinates sent with it; its name is the label when
    /// none is given. An unknown id is a 400 naming the field.
    func resolved(_ place: CommutePlace, field: String) async throws -> CommutePlace {
        guard let places, let id = place.placeId else { return place }
        guard id.count <= 300, !id.isEmpty else { throw TripRules.invalid("'\(field).placeId' is not a place id.") }
        guard let details = try await places.details(placeId: id, sessionToken: nil) else {
            throw TripRules.invalid(
                "'\(field).placeId' \(id) is not a known place; find one with /rides/places/autocomplete or send coordinates."
            )
        }
        var place = place
        place.latitude = details.coordinate.latitude
        place.longitude = details.coordinate.longitude
        if place.label.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { place.label = details.name }
        return place
    }

    // MARK: Recommendations

    /// For the occurrence on `day` (local), or the next one.
    public func recommendation(tripID: String, accountID: String, day: String?) async throws
        -> LeaveTimeRecommendation
    {
        let trip = try await trip(id: tripID, accountID: accountID)
        let now = clock.now
        let arriveBy: Date
        if let day {
            guard let date = TripCalendar.parseDay(day), let arrival = calendar.arrival(of: trip, on: date) else {
                throw TripRules.invalid("'date' must be a day YYYY-MM-DD such as 2026-03-02.")
            }
            guard arrival > now else {
                throw ConciergeError(
                    .invalidInput, code: "date_in_past",
                    message: "The trip's arrival on \(day) has passed. Ask for today or a later day.")
            }
            guard arrival.timeIntervalSince(now) <= 31 * 86400 else {
                throw TripRules.invalid("'date' must be within the next 31 days.")
            }
            arriveBy = arrival
        } else {
            guard let next = calendar.nextOccurrence(of: trip, after: now) else {
                throw ConciergeError(
                    .notFound, code: "no_occurrence",
                    message: "The trip has no occurrence in the next two weeks (holidays are skipped).")
            }
            arriveBy = next.arriveBy
        }
        let plan = try await self.plan(trip, arriveBy: arriveBy)
        return plan.recommendation(tripID: trip.id)
    }

    /// The plan of one occurrence, with the person's history.
    public func plan(_ trip: CommuteTrip, arriveBy: Date) async throws -> LeavePlanner.Plan {
        let observations = try await store.observations(tripID: trip.id, limit: PersonalBias.window)
        return try await planner.plan(
            LeavePlanner.Request(
                origin: trip.origin.coordinate, destination: trip.destination.coordinate, arriveBy: arriveBy,
                bufferMinutes: trip.bufferMinutes, onTimeTarget: trip.onTimeTarget,
                errors: observations.map { $0.travelMinutes - $0.expectedMinutes }))
    }

    /// `/predict`: stateless, with the caller's route and weather when sent.
    public func predict(_ request: PredictRequest) async throws -> LeaveTimeRecommendation {
        let origin = try TripRules.place(try await resolved(request.origin, field: "origin"), field: "origin")
        let destination = try TripRules.place(
            try await resolved(request.destination, field: "destination"), field: "destination")
        try TripRules.route(from: origin, to: destination)
        guard let arriveBy = TripRules.instant(request.arriveBy) else {
            throw TripRules.invalid("'arriveBy' must be an ISO 8601 time such as 2026-03-02T08:30:00Z.")
        }
        let now = clock.now
        guard arriveBy > now, arriveBy.timeIntervalSince(now) <= 31 * 86400 else {
            throw TripRules.invalid("'arriveBy' must be in the next 31 days.")
        }
        let buffer = request.bufferMinutes ?? 5
        guard (0...60).contains(buffer) else { throw TripRules.invalid("'bufferMinutes' must be 0 to 60.") }
        var clientTravel: TravelTime?
        if let route = request.route {
            guard route.distanceKm.isFinite, (0...2000).contains(route.distanceKm), route.durationMinutes.isFinite,
                (1...1440).contains(route.durationMinutes),
                (route.typicalDurationMinutes ?? 1).isFinite, (0...1440).contains(route.typicalDurationMinutes ?? 1)
            else {
                throw TripRules.invalid(
                    "'route' needs distanceKm 0–2000 and durationMinutes (and typicalDurationMinutes) 1–1440.")
            }
            clientTravel = TravelTime(
                distanceMeters: Int(route.distanceKm * 1000), durationSeconds: Int(route.durationMinutes * 60),
                typicalDurationSeconds: Int((route.typicalDurationMinutes ?? route.durationMinutes) * 60),
                provider: "client")
        }
        var clientWeather: WeatherConditions?
        if let weather = request.weather {
            guard weather.precipitationMm.isFinite, (0...500).contains(weather.precipitationMm),
                weather.snowCm.isFinite, (0...200).contains(weather.snowCm), weather.temperatureC.isFinite,
                (-90...60).contains(weather.temperatureC), weather.summary.count <= 200,
                (weather.visibilityKm ?? 0).isFinite, (0...1000).contains(weather.visibilityKm ?? 0)
            else {
                throw TripRules.invalid(
                    "'weather' needs precipitationMm 0–500, snowCm 0–200, temperatureC -90–60, visibilityKm 0–1000.")
            }
            clientWeather = WeatherConditions(
                summary: weather.summary, precipitationMm: weather.precipitationMm, snowCm: weather.snowCm,
                temperatureC: weather.temperatureC, visibilityKm: weather.visibilityKm)
        }
        let plan = try await planner.plan(
            LeavePlanner.Request(
                origin: origin.coordinate, destination: destination.coordinate, arriveBy: arriveBy,
                bufferMinutes: buffer, onTimeTarget: 0.9, clientTravel: clientTravel, clientWeather: clientWeather))
        return plan.recommendation(tripID: nil)
    }

    // MARK: Observations

    public func observe(tripID: String, accountID: String, input: CommuteObservationInput) async throws
        -> CommuteObservation
    {
        let trip = try await trip(id: tripID, accountID: accountID)
        guard let departed = TripRules.instant(input.departedAt), let arrived = TripRules.instant(input.arrivedAt)
        else { throw TripRules.invalid("'departedAt' and 'arrivedAt' must be ISO 8601 times.") }
        guard arrived > departed else {
            throw ConciergeError(
                .invalidInput, code: "arrival_before_departure", message: "'arrivedAt' must be after 'departedAt'.")
        }
        let now = clock.now
        guard arrived.timeIntervalSince(departed) <= 12 * 3600 else {
            throw TripRules.invalid("A commute cannot take more than 12 hours.")
        }
        guard arrived <= now.addingTimeInterval(300), departed >= now.addingTimeInterval(-366 * 86400) else {
            throw TripRules.invalid("An observation must be of a trip in the last year, not the future.")
        }
        let expected = try await planner.travel.travel(
            from: trip.origin.coordinate, to: trip.destination.coordinate,
            bucket: TravelTimeLookup.bucketStart(departed))
        let observation = CommuteObservation(
            id: random.identifier(prefix: "obs"), tripId: trip.id, departedAt: WireDate.string(from: departed),
            arrivedAt: WireDate.string(from: arrived),
            travelMinutes: (arrived.timeIntervalSince(departed) / 6).rounded() / 10,
            expectedMinutes: (Double(expected.travel.durationSeconds) / 6).rounded() / 10,
            createdAt: WireDate.string(from: now))
        try await store.insertObservation(observation)
        return observation
    }

    public func observations(tripID: String, accountID: String) async throws -> [CommuteObservation] {
        _ = try await trip(id: tripID, accountID: accountID)
        return try await store.observations(tripID: tripID, limit: 500)
    }

    // MARK: Devices and notices

    /// `sessionID`: the session the app called in (nil with an ID token); signing out of it
    /// releases the device.
    public func registerDevice(accountID: String, sessionID: String?, input: CommuteDeviceInput) async throws
        -> CommuteDevice
    {
        guard input.platform == "ios" else { throw TripRules.invalid("'platform' must be ios.") }
        guard ["sandbox", "production"].contains(input.environment) else {
            throw TripRules.invalid("'environment' must be sandbox or production.")
        }
        // APNs device tokens are hex (32 bytes today; Apple says not to assume the length).
        guard (16...200).contains(input.token.count), input.token.allSatisfy({ $0.isASCII && $0.isHexDigit }) else {
            throw TripRules.invalid("'token' must be the device token in hex.")
        }
        let device = CommuteDevice(
            platform: input.platform, token: input.token.lowercased(), environment: input.environment,
            createdAt: WireDate.string(from: clock.now))
        // Someone who learns a token (apps, logs and analytics do not treat it as a secret)
        // must not take the device's notices over (review 2026-11-27, finding 8).
        guard try await store.upsertDevice(accountID: accountID, sessionID: sessionID, device: device) else {
            throw ConciergeError.deviceTokenTaken
        }
        return device
    }

    public func deleteDevice(accountID: String, token: String) async throws {
        guard try await store.deleteDevice(accountID: accountID, token: token.lowercased()) else {
            throw ConciergeError(.notFound, code: "device_not_found", message: "No such device is registered.")
        }
    }

    public func notifications(accountID: String) async throws -> [CommuteNotification] {
        try await store.notifications(accountID: accountID, limit: 200)
    }
}

extension CommutePlace {
    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}
