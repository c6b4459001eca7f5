public import ConciergeModels
public import Foundation
public import Observation

/// The trip list screen: the person's trips with each one's next leave time.
///
/// ```swift
/// let list = TripListViewModel(storage: TripStorageService(api: api), api: api)
/// await list.load()
/// ```
@Observable @MainActor public final class TripListViewModel {
    public private(set) var trips: [CommuteTrip] = []
    /// The next recommendation per trip id, when it could be fetched.
    public private(set) var nextLeave: [String: LeaveTimeRecommendation] = [:]
    public private(set) var isLoading = false
    public private(set) var errorMessage: String?

    private let storage: any TripStorageServiceProtocol
    private let api: CommuteAPI?

    public init(storage: any TripStorageServiceProtocol, api: CommuteAPI? = nil) {
        self.storage = storage
        self.api = api
    }

    public func load() async {
        isLoading = true
        defer { isLoading = false }
        do {
            trips = try await storage.loadTrips()
            errorMessage = nil
            guard let api else { return }
            for trip in trips {
                nextLeave[trip.id] = try? await api.recommendation(tripID: trip.id)
            }
        } catch {
            errorMessage = Self.describe(error)
        }
    }

    public func delete(id: String) async {
        do {
            try await storage.delete(id: id)
            trips.removeAll { $0.id == id }
            nextLeave[id] = nil
            errorMessage = nil
        } catch {
            errorMessage = Self.describe(error)
        }
    }

    nonisolated static func describe(_ error: any Error) -> String {
        (error as? BookingError)?.errorDescription ?? "\(error)"
    }
}

/// The trip planner wizard: a draft trip, a preview of its leave time, and saving it.
@Observable @MainActor public final class TripPlannerViewModel {
    public var name = ""
    public var origin: CommutePlace?
    public var destination: CommutePlace?
    /// Local `HH:MM`.
    public var arrivalTime = "08:30"
    public var repeatDays = ["mon", "tue", "wed", "thu", "fri"]
    public var timeZone = TimeZone.current.identifier
    public var bufferMinutes = 5
    public private(set) var preview: LeaveTimeRecommendation?
    public private(set) var saved: CommuteTrip?
    public private(set) var isWorking = false
    public private(set) var errorMessage: String?

    private let storage: any TripStorageServiceProtocol
    private let engine: any PredictionEngineProtocol
    private let editing: String?

    public init(
        storage: any TripStorageServiceProtocol, engine: any PredictionEngineProtocol, editing trip: CommuteTrip? = nil
    ) {
        self.storage = storage
        self.engine = engine
        self.editing = trip?.id
        if let trip {
            name = trip.name
            origin = trip.origin
            destination = trip.destination
            arrivalTime = trip.arrivalTime
            repeatDays = trip.repeatDays
            timeZone = trip.timeZone
            bufferMinutes = trip.bufferMinutes
        }
    }

    public var canSave: Bool { !name.isEmpty && origin != nil && destination != nil }

    /// The leave time for arriving at `arriveBy` (the server's, or the device's heuristic).
    public func fetchPrediction(arriveBy: Date) async {
        guard let origin, let destination else { return }
        isWorking = true
        defer { isWorking = false }
        preview = await engine.recommendation(
            from: origin, to: destination, arriveBy: arriveBy, route: nil, weather: nil, bufferMinutes: bufferMinutes)
    }

    public func save() async {
        guard let origin, let destination else {
            errorMessage = "Choose where you start and where you are going."
            return
        }
        isWorking = true
        defer { isWorking = false }
        do {
            saved = try await storage.save(
                CommuteTripInput(
                    name: name, origin: origin, destination: destination, arrivalTime: arrivalTime,
                    repeatDays: repeatDays, timeZone: timeZone, bufferMinutes: bufferMinutes),
                id: editing)
            errorMessage = nil
        } catch {
            errorMessage = TripListViewModel.describe(error)
        }
    }
}
