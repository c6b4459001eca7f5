import ConciergeModels
import Foundation
import Testing

@testable import ConciergeKit

/// A clock that only moves when a test calls `advance(by:)`; sleepers wake when it passes their
/// deadline or throw `CancellationError` when their task is cancelled.
final class ManualClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [Sleeper] = []
    private var nextID = 0

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on this clock.
    var sleeperCount: Int { lock.withLock { sleepers.count } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = lock.withLock {
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = lock.withLock {
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= current { return .success(()) }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = lock.withLock { () -> Sleeper? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    func advance(by duration: Duration) {
        let due = lock.withLock { () -> [Sleeper] in
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits (up to five seconds) until `count` tasks sleep on this clock.
    func waitForSleepers(_ count: Int) async throws {
        for _ in 0..<5_000 where sleeperCount < count {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(sleeperCount == count)
    }
}

@MainActor @Suite struct ViewModelTests {
    static let phone = "+41791234567"

    /// Signs in through the login view model and returns the manager holding the session.
    static func signIn(_ server: LiveServer) async throws -> AuthenticationManager {
        let manager = AuthenticationManager(store: InMemorySessionStore())
        let login = SMSLoginViewModel(auth: VeramoAuthService(client: server.client), manager: manager)
        login.nationalNumber = "079 123 45 67"
        await login.sendCode()
        login.code = try await server.latestCode()
        await login.verify()
        #expect(login.state == .signedIn)
        return manager
    }

    static func place(_ id: String, _ name: String) -> PlaceSuggestionResponse {
        PlaceSuggestionResponse(placeId: id, description: name, mainText: name, secondaryText: "", kind: "city")
    }

    // MARK: SMS login

    @Test func loginSendsCountsDownRejectsAWrongCodeAndSignsIn() async throws {
        try await LiveServer.run { @MainActor server in
            let manager = AuthenticationManager(store: InMemorySessionStore())
            let login = SMSLoginViewModel(auth: VeramoAuthService(client: server.client), manager: manager)
            #expect(login.country == .switzerland)
            #expect(login.state == .enteringPhone)

            login.nationalNumber = "12"
            #expect(!login.canSendCode)
            await login.sendCode()
            #expect(login.state == .failed)
            #expect(login.errorMessage == SMSLoginViewModel.enterNumberMessage)

            login.nationalNumber = "079 123 45 67"
            #expect(login.canSendCode)
            await login.sendCode()
            #expect(login.state == .enteringCode)
            #expect(login.errorMessage == nil)
            #expect(login.sentPhone == Self.phone)
            #expect(login.resendCountdown == 30)
            #expect(!login.canResend)
            await login.sendCode()  // too early: ignored, no request
            #expect(login.state == .enteringCode)
            for _ in 0..<29 { login.tick() }
            #expect(login.resendCountdown == 1)
            #expect(!login.canResend)
            login.tick()
            #expect(login.resendCountdown == 0)
            #expect(login.canResend)
            login.tick()
            #expect(login.resendCountdown == 0)

            let code = try await server.latestCode()
            login.code = "  "
            await login.verify()
            #expect(login.errorMessage == SMSLoginViewModel.enterCodeMessage)

            let wrongLast: Character = code.last == "0" ? "1" : "0"
            login.code = String(code.dropLast()) + String(wrongLast)
            await login.verify()
            #expect(login.state == .enteringCode)
            #expect(login.errorMessage?.contains("not right") == true)
            #expect(!manager.isAuthenticated)

            login.code = code
            await login.verify()
            #expect(login.state == .signedIn)
            #expect(login.errorMessage == nil)
            #expect(login.customer?.phone == Self.phone)
            #expect(manager.isAuthenticated)
            #expect(manager.currentCustomer?.phone == Self.phone)
            #expect(!login.canResend)
        }
    }

    @Test func loginShowsTheServersMessageWhenTheCodeCannotBeSent() async throws {
        try await LiveServer.run { @MainActor server in
            let manager = AuthenticationManager(store: InMemorySessionStore())
            let login = SMSLoginViewModel(auth: VeramoAuthService(client: server.client), manager: manager)
            login.nationalNumber = "079 123 45 67"
            await login.sendCode()
            #expect(login.state == .enteringCode)
            // Another number on the same screen is refused until the countdown is over…
            login.changeNumber()
            #expect(login.state == .enteringPhone)
            login.nationalNumber = "079 765 43 21"
            #expect(!login.canSendCode)
            // …and the server itself refuses a second code for the first number too early.
            let again = SMSLoginViewModel(auth: VeramoAuthService(client: server.client), manager: manager)
            again.nationalNumber = "079 123 45 67"
            await again.sendCode()
            #expect(again.state == .failed)
            #expect(again.errorMessage?.contains("A code was just sent") == true)
        }
        let offline = SMSLoginViewModel(
            auth: VeramoAuthService(client: ConciergeClient(baseURL: URL(string: "http://127.0.0.1:1")!)),
            manager: AuthenticationManager(store: InMemorySessionStore()))
        offline.nationalNumber = "079 123 45 67"
        await offline.sendCode()
        #expect(offline.state == .failed)
        #expect(offline.errorMessage == BookingError.networkError(CancellationError()).errorDescription)
    }

    // MARK: Ride booking

    @Test func twoQuickQueriesSearchOnceAfterTheDebounce() async throws {
        try await LiveServer.run { @MainActor server in
            let clock = ManualClock()
            let ride = RideBookingViewModel(
                places: PlacesService(client: server.client), clock: clock, debounce: .milliseconds(300))
            ride.pickupQuery = "zurich"
            try await clock.waitForSleepers(1)
            ride.pickupQuery = "ZRH"  // cancels the pending "zurich" search
            #expect(clock.sleeperCount == 0)
            try await clock.waitForSleepers(1)
            clock.advance(by: .milliseconds(299))
            try await Task.sleep(for: .milliseconds(20))
            #expect(ride.searchesSent == 0)
            clock.advance(by: .milliseconds(1))
            await ride.updateQuery("ZRH", for: .pickup)  // same text: waits for the pending search
            #expect(ride.searchesSent == 1)
            #expect(ride.activeField == .pickup)
            let airport = try #require(ride.suggestions.first)
            #expect(airport.placeId == "gz_iata_ZRH")

            ride.select(airport, for: .pickup)
            #expect(ride.selectedPickup == airport)
            #expect(ride.pickupQuery == airport.description)
            #expect(ride.suggestions.isEmpty)
            #expect(!ride.canContinue)

            // The awaiting form: a query replaced before its debounce ends never searches.
            async let replaced: Void = ride.updateQuery("zu", for: .destination)
            try await clock.waitForSleepers(1)
            async let latest: Void = ride.updateQuery("zurich", for: .destination)
            try await Task.sleep(for: .milliseconds(20))
            try await clock.waitForSleepers(1)
            clock.advance(by: .milliseconds(300))
            _ = await (replaced, latest)
            #expect(ride.searchesSent == 2)
            #expect(ride.activeField == .destination)
            let city = try #require(ride.suggestions.first)
            ride.select(city, for: .destination)
            #expect(ride.canContinue)

            // Editing a chosen place un-chooses it; a one-letter query clears without a request.
            ride.destinationQuery = "z"
            #expect(ride.selectedDestination == nil)
            #expect(!ride.canContinue)
            try await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
            await ride.updateQuery("z", for: .destination)
            #expect(ride.searchesSent == 2)
            #expect(ride.suggestions.isEmpty)
        }
    }

    @Test func thePickupIsClampedToFortyEightHoursAhead() {
        let now = Date(timeIntervalSince1970: 1_800_000_100)  // 2027-01-15T08:01:40Z
        let ride = RideBookingViewModel(
            places: PlacesService(client: ConciergeClient(baseURL: URL(string: "http://127.0.0.1:1")!)),
            now: { now })
        // 48 h later, rounded up to the next five minutes.
        #expect(ride.earliestPickup == Date(timeIntervalSince1970: 1_800_173_100))
        #expect(ride.pickupDate == ride.earliestPickup)
        #expect(ride.dateMessage == nil)

        ride.pickupDate = now.addingTimeInterval(3600)
        #expect(ride.pickupDate == ride.earliestPickup)
        #expect(ride.dateMessage?.contains("48 hours") == true)

        ride.pickupDate = now.addingTimeInterval(72 * 3600)
        #expect(ride.pickupDate == now.addingTimeInterval(72 * 3600))
        #expect(ride.dateMessage == nil)
        #expect(ride.pickupDatetimeUTC == "2027-01-18T08:01:40.000Z")

        ride.select(Self.place("gz_iata_ZRH", "Zurich Airport"), for: .pickup)
        #expect(!ride.canContinue)
        ride.select(Self.place("gz_iata_ZRH", "Zurich Airport"), for: .destination)
        #expect(!ride.canContinue)  // the same place twice
        ride.select(Self.place("gz_geo_2657896", "Zürich"), for: .destination)
        #expect(ride.canContinue)
    }

    // MARK: Vehicle selection

    @Test func pricesLoadAndBookingGivesACheckoutURL() async throws {
        try await LiveServer.run { @MainActor server in
            let manager = try await Self.signIn(server)
            let vehicles = VehicleSelectionViewModel(
                pickup: Self.place("gz_iata_ZRH", "Zurich Airport"),
                destination: Self.place("gz_geo_2657896", "Zürich"),
                pickupDatetime: SwissDateTime.utcISO8601(from: Date().addingTimeInterval(3 * 86_400)),
                pricing: PricingService(client: server.client), booking: BookingService(client: server.client),
                manager: manager)
            #expect(vehicles.selectedClass == "business")
            #expect(!vehicles.canBook)
            await vehicles.loadPrices()
            let pricing = try #require(vehicles.pricing)
            #expect(vehicles.errorMessage == nil)
            #expect(vehicles.selectedPrice == pricing.prices.business)
            #expect(vehicles.maxPassengers == pricing.prices.business.maxPassengers)
            vehicles.selectedClass = "First Class"
            #expect(vehicles.selectedPrice == pricing.prices.first)
            vehicles.selectedClass = "business"
            vehicles.passengers = 2
            vehicles.flightNumber = " LX123 "
            #expect(vehicles.canBook)

            await vehicles.book()
            #expect(vehicles.errorMessage == nil)
            #expect(vehicles.checkoutURL != nil)
            let reference = try #require(vehicles.bookingReference)
            #expect(!vehicles.sessionExpired)
            let token = try #require(manager.sessionToken)
            let booked = try await BookingService(client: server.client).booking(
                reference: reference, sessionToken: token)
            #expect(booked.flightNumber == "LX123")
            #expect(booked.passengers == 2)
            #expect(booked.priceCents == pricing.prices.business.priceCents)
        }
    }

    @Test func anInvalidSessionOnBookingSignsOut() async throws {
        try await LiveServer.run { @MainActor server in
            let store = InMemorySessionStore(
                SavedSession(
                    customer: AuthenticatedCustomer(id: "cus_gone", phone: Self.phone), sessionToken: "not-a-session",
                    expiresAt: Date().addingTimeInterval(86_400)))
            let manager = AuthenticationManager(store: store)
            #expect(manager.isAuthenticated)
            let vehicles = VehicleSelectionViewModel(
                pickup: Self.place("gz_iata_ZRH", "Zurich Airport"),
                destination: Self.place("gz_geo_2657896", "Zürich"),
                pickupDatetime: SwissDateTime.utcISO8601(from: Date().addingTimeInterval(3 * 86_400)),
                pricing: PricingService(client: server.client), booking: BookingService(client: server.client),
                manager: manager)
            await vehicles.loadPrices()
            await vehicles.book()
            #expect(vehicles.sessionExpired)
            #expect(!manager.isAuthenticated)
            #expect(vehicles.errorMessage == VehicleSelectionViewModel.signInAgainMessage)
            #expect(vehicles.checkoutURL == nil)
        }
    }

    @Test func bookingWithoutASessionAsksToSignInWithoutARequest() async {
        // An unreachable server: a request would end in a network error instead.
        let offline = ConciergeClient(baseURL: URL(string: "http://127.0.0.1:1")!)
        let vehicles = VehicleSelectionViewModel(
            pickup: Self.place("gz_iata_ZRH", "Zurich Airport"), destination: Self.place("gz_geo_2657896", "Zürich"),
            pickupDatetime: "2027-01-18T08:00:00.000Z", pricing: PricingService(client: offline),
            booking: BookingService(client: offline), manager: AuthenticationManager(store: InMemorySessionStore()))
        await vehicles.book()
        #expect(vehicles.sessionExpired)
        #expect(vehicles.errorMessage == VehicleSelectionViewModel.signInAgainMessage)

        await vehicles.loadPrices()
        #expect(vehicles.errorMessage == BookingError.networkError(CancellationError()).errorDescription)
    }

    // MARK: Bookings

    @Test func bookingsLoadPageByPageAndCancelInPlace() async throws {
        try await LiveServer.run { @MainActor server in
            let manager = try await Self.signIn(server)
            let token = try #require(manager.sessionToken)
            let service = BookingService(client: server.client)
            var references: [String] = []
            for day in 3...5 {
                let response = try await service.createBooking(
                    pickupPlaceId: "gz_iata_ZRH", pickupDescription: "Zurich Airport",
                    destinationPlaceId: "gz_geo_2657896", destinationDescription: "Zürich",
                    dateTime: SwissDateTime.utcISO8601(from: Date().addingTimeInterval(Double(day) * 86_400)),
                    passengers: 1, vehicleClass: "business", flightNumber: nil, sessionToken: token)
                references.append(try #require(response.quoteReference))
            }

            let history = BookingsViewModel(service: service, manager: manager, pageSize: 2)
            #expect(!history.hasMore)
            await history.load()
            #expect(history.errorMessage == nil)
            #expect(history.bookings.count == 2)
            #expect(history.hasMore)
            #expect(!history.isLoading)
            await history.loadMore()
            #expect(history.bookings.map(\.reference).sorted() == references.sorted())
            #expect(!history.hasMore)
            await history.loadMore()  // the last page: nothing to do
            #expect(history.bookings.count == 3)

            let target = history.bookings[1]
            #expect(target.status == "awaiting_payment")
            await history.cancel(reference: target.reference)
            #expect(history.errorMessage == nil)
            #expect(history.bookings.count == 3)
            #expect(history.bookings[1].reference == target.reference)
            #expect(history.bookings[1].status == "cancelled")
            #expect(history.bookings[0].status == "awaiting_payment")

            await history.load()  // refresh replaces, and the server agrees
            #expect(history.bookings.count == 2)
            #expect(history.bookings.first { $0.reference == target.reference }?.status ?? "cancelled" == "cancelled")

            manager.saveAuthentication(
                customer: AuthenticatedCustomer(id: "cus_gone", phone: Self.phone), sessionToken: "not-a-session")
            await history.cancel(reference: history.bookings[0].reference)
            #expect(history.sessionExpired)
            #expect(!manager.isAuthenticated)
            #expect(history.errorMessage == VehicleSelectionViewModel.signInAgainMessage)
        }
    }
}
