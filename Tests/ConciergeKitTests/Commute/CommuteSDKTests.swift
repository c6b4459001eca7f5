import ConciergeCLI
import ConciergeKit
import Foundation
import Testing

/// ConciergeKit's commute services, view models and CLI commands against a live server.
@Suite struct CommuteSDKTests {
    static func signIn(_ server: LiveServer) async throws -> String {
        let auth = Rides.VeramoAuthService(client: server.client)
        _ = try await auth.requestSMSCode(phone: "+41 79 123 45 67")
        return try await auth.verifySMSCode(phone: "+41791234567", code: try await server.latestCode()).1
    }

    static let hb = CommutePlace(latitude: 47.3779, longitude: 8.5403, label: "Zürich HB")
    static let winterthur = CommutePlace(latitude: 47.4997, longitude: 8.7241, label: "Winterthur")

    @Test @MainActor func tripsArePlannedSavedListedAndObservedThroughTheSDK() async throws {
        try await LiveServer.run { server in
            let token = try await Self.signIn(server)
            let api = CommuteAPI(client: server.client) { token }
            let storage = TripStorageService(api: api)
            let engine = PredictionEngine(api: api)

            let planner = await TripPlannerViewModel(storage: storage, engine: engine)
            await MainActor.run {
                planner.name = "Office"
                planner.origin = Self.hb
                planner.destination = Self.winterthur
                // Twelve hours from now: a trip due within the hour would be noticed at once, and
                // this test expects no notice (a fixed 08:30 failed when run around 08:00 Zurich).
                planner.arrivalTime = Self.clockTime(Date().addingTimeInterval(12 * 3600), in: "Europe/Zurich")
                planner.timeZone = "Europe/Zurich"
            }
            await planner.fetchPrediction(arriveBy: Date().addingTimeInterval(3 * 3600))
            let preview = try #require(await planner.preview)
            #expect(preview.source == "heuristic" && preview.route.provider == "estimator")
            await planner.save()
            let saved = try #require(await planner.saved)
            #expect(await planner.errorMessage == nil)

            let list = await TripListViewModel(storage: storage, api: api)
            await list.load()
            #expect(await list.trips.map(\.id) == [saved.id])
            #expect(await list.nextLeave[saved.id]?.tripId == saved.id)

            // Whole seconds: the answer echoes the times sent, the list reads them back from
            // storage in milliseconds, and a sub-millisecond remainder would make them differ.
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            let observation = try await api.observe(
                tripID: saved.id, departedAt: now.addingTimeInterval(-3600), arrivedAt: now.addingTimeInterval(-1500))
            #expect(observation.travelMinutes == 35)
            // What was observed comes back; the server's own time stamp and estimate are written
            // with less precision than the first answer shows, so they are not compared.
            let listed = try await api.observations(tripID: saved.id)
            #expect(listed.map(\.id) == [observation.id])
            #expect(listed.first?.departedAt == observation.departedAt)
            #expect(listed.first?.arrivedAt == observation.arrivedAt)
            #expect(listed.first?.travelMinutes == observation.travelMinutes)
            let device = try await api.registerDevice(token: "ABCDEF0123456789ABCDEF0123456789", environment: "sandbox")
            #expect(device.token == "abcdef0123456789abcdef0123456789")
            try await api.unregisterDevice(token: device.token)
            #expect(try await api.notifications().isEmpty)

            await list.delete(id: saved.id)
            #expect(await list.trips.isEmpty)
            #expect(await list.errorMessage == nil)
            do {
                _ = try await api.trip(id: saved.id)
                Issue.record("a deleted trip is gone")
            } catch {
                #expect("\(error)".contains("no such trip"), "\(error)")
            }
        }
    }

    /// `HH:MM` of `date` in `timeZone`.
    static func clockTime(_ date: Date, in timeZone: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone) ?? .gmt
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    @Test func aLiveActivityTokenIsRegisteredReplacedAndUnregisteredThroughTheSDK() async throws {
        try await LiveServer.run { server in
            let token = try await Self.signIn(server)
            let api = CommuteAPI(client: server.client) { token }
            let trip = try await api.createTrip(
                CommuteTripInput(
                    name: "Office", origin: Self.hb, destination: Self.winterthur, arrivalTime: "08:30",
                    timeZone: "Europe/Zurich"))
            let activityToken = String(repeating: "80C1D2E3F4A5B6C7", count: 10)
            let registered = try await api.registerLiveActivity(
                tripID: trip.id, token: activityToken, environment: "production")
            #expect(registered.tripId == trip.id && registered.token == activityToken.lowercased())
            #expect(registered.environment == "production")
            // ActivityKit rotates the token: the new one replaces the old.
            let rotated = try await api.registerLiveActivity(
                tripID: trip.id, token: String(repeating: "ab", count: 40), environment: "production")
            #expect(rotated.token == String(repeating: "ab", count: 40))
            do {
                _ = try await api.registerLiveActivity(tripID: trip.id, token: "xyz", environment: "production")
                Issue.record("a token that is not hex is refused")
            } catch {
                #expect("\(error)".contains("Live Activity push token"), "\(error)")
            }
            try await api.unregisterLiveActivity(tripID: trip.id)
            do {
                try await api.unregisterLiveActivity(tripID: trip.id)
                Issue.record("nothing left to unregister")
            } catch {
                #expect("\(error)".contains("no Live Activity"), "\(error)")
            }
        }
    }

    @Test func thePredictionEngineFallsBackOnTheDeviceWhenTheServerIsUnreachable() async throws {
        let offline = CommuteAPI(client: ConciergeClient(baseURL: URL(string: "http://127.0.0.1:9")!)) { "x" }
        let arrive = Date().addingTimeInterval(7200)
        let plan = await PredictionEngine(api: offline).recommendation(
            from: Self.hb, to: Self.winterthur, arriveBy: arrive,
            route: PredictRoute(distanceKm: 26, durationMinutes: 31),
            weather: nil, bufferMinutes: 5)
        #expect(plan.source == "heuristic" && plan.confidence < 0.5)
        #expect(plan.travelMinutes == 31)
        let leave = try #require(WireDate.date(from: plan.leaveAt))
        #expect(abs(arrive.timeIntervalSince(leave) - Double(31 + 5 + 4) * 60) < 1)
    }

    @Test func theCLIAddsListsShowsPlansObservesAndDeletesTrips() async throws {
        try await LiveServer.run { server in
            let token = try await Self.signIn(server)
            let table = CommuteCommands(client: server.client, token: token, json: false)
            let json = CommuteCommands(client: server.client, token: token, json: true)
            let added = try await json.add(
                .init(
                    name: "Office", from: "47.3779,8.5403,Zürich HB", to: "47.4997,8.7241,Winterthur", arrive: "08:30",
                    days: "mon,wed", timeZone: "Europe/Zurich", buffer: 10))
            let trip = try JSONDecoder().decode(CommuteTrip.self, from: Data(added.utf8))
            #expect(trip.repeatDays == ["mon", "wed"] && trip.bufferMinutes == 10)
            let listing = try await table.list()
            #expect(listing.contains(trip.id) && listing.contains("Winterthur") && listing.hasPrefix("ID"))
            #expect(try await table.show(trip.id).contains("by 08:30 (Europe/Zurich) on mon,wed"))
            #expect(try await table.next(trip.id, date: nil).hasPrefix("Leave at "))
            let observed = try await table.observe(
                trip.id, departed: WireDate.string(from: Date().addingTimeInterval(-3600)),
                arrived: WireDate.string(from: Date().addingTimeInterval(-1200)))
            #expect(observed.hasPrefix("Recorded 40"))
            await #expect(throws: CLIError.self) {
                try await table.observe(trip.id, departed: "noon", arrived: "later")
            }
            #expect(try await table.delete(trip.id) == "Deleted \(trip.id).")
            #expect(try await table.list().hasPrefix("No trips yet"))
        }
    }
}
