import ConciergeKit
import ConciergeModels
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The seed app's calls, written as the implementation guide writes them, against a live server.
@Suite struct RidesSDKTests {
    @Test func theWholeFlowSignsInPricesBooksPaysAndCancels() async throws {
        try await LiveServer.run { server in
            let auth = VeramoAuthService(client: server.client)
            let sent = try await auth.requestSMSCode(phone: "+41 79 123 45 67")
            #expect(sent.expiresInSeconds == 600)
            let (customer, sessionToken) = try await auth.verifySMSCode(
                phone: "+41791234567", code: try await server.latestCode())
            #expect(customer.phone == "+41791234567")

            let manager = AuthenticationManager(store: InMemorySessionStore())
            manager.saveAuthentication(customer: customer, sessionToken: sessionToken)
            #expect(manager.isAuthenticated)
            #expect(manager.currentCustomer == customer)

            let places = PlacesService(client: server.client)
            let airport = try #require(try await places.autocomplete("ZRH").first)
            #expect(airport.placeId == "gz_iata_ZRH")
            let city = try #require(try await places.autocomplete("zurich").first)

            let pickup = WireDate.string(from: Date().addingTimeInterval(3 * 86_400))
            let pricing = try await PricingService(client: server.client).fetchPricing(
                originPlaceId: airport.placeId, destinationPlaceId: city.placeId, pickupDatetime: pickup)
            #expect(pricing.prices.business.priceFormatted.hasPrefix("CHF "))

            let bookings = BookingService(client: server.client)
            let response = try await bookings.createBooking(
                pickupPlaceId: airport.placeId, pickupDescription: airport.description,
                destinationPlaceId: city.placeId, destinationDescription: city.description, dateTime: pickup,
                passengers: 2, vehicleClass: "Business Class", flightNumber: "LX123", sessionToken: sessionToken)
            #expect(response.success)
            #expect(response.priceCents == pricing.prices.business.priceCents)
            let reference = try #require(response.quoteReference)
            #expect(URL(string: response.checkoutUrl ?? "") != nil)

            let waiting = try await bookings.booking(reference: reference, sessionToken: sessionToken)
            #expect(waiting.status == "awaiting_payment")

            // The customer pays on the sandbox checkout page, as a browser would.
            var payment = URLRequest(url: try #require(URL(string: response.checkoutUrl ?? "")))
            payment.httpMethod = "POST"
            payment.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            payment.httpBody = Data("outcome=paid".utf8)
            _ = try await URLSession.shared.data(for: payment)

            let history = try await bookings.bookings(sessionToken: sessionToken)
            #expect(history.bookings.map(\.reference) == [reference])
            #expect(history.bookings.first?.status == "confirmed")
            let cancelled = try await bookings.cancel(reference: reference, sessionToken: sessionToken)
            #expect(cancelled.status == "cancelled")
        }
    }

    /// The `BookingError` `body` throws, or nil.
    static func caught(_ body: () async throws -> Void) async -> BookingError? {
        do {
            try await body()
            return nil
        } catch let error as BookingError {
            return error
        } catch {
            Issue.record("not a BookingError: \(error)")
            return nil
        }
    }

    @Test func serverErrorsBecomeTheSeedsBookingErrors() async throws {
        try await LiveServer.run { server in
            let bookings = BookingService(client: server.client)
            let unauthorized = await Self.caught { _ = try await bookings.bookings(sessionToken: "not-a-session") }
            guard case .unauthorized? = unauthorized else {
                Issue.record("expected unauthorized, got \(String(describing: unauthorized))")
                return
            }
            let missing = await Self.caught {
                _ = try await bookings.createBooking(
                    pickupPlaceId: "gz_iata_ZRH", pickupDescription: "", destinationPlaceId: "gz_geo_2657896",
                    destinationDescription: "", dateTime: "", passengers: 1, vehicleClass: "business",
                    flightNumber: nil,
                    sessionToken: nil)
            }
            guard case .missingSessionToken? = missing else {
                Issue.record("expected missingSessionToken, got \(String(describing: missing))")
                return
            }
            let noRoute = await Self.caught {
                _ = try await PricingService(client: server.client).fetchPricing(
                    originPlaceId: "gz_iata_ZRH", destinationPlaceId: "gz_iata_JFK",
                    pickupDatetime: WireDate.string(from: Date().addingTimeInterval(86_400)))
            }
            guard case .routeCalculationFailed? = noRoute else {
                Issue.record("expected routeCalculationFailed, got \(String(describing: noRoute))")
                return
            }
            let invalid = await Self.caught {
                _ = try await VeramoAuthService(client: server.client).requestSMSCode(phone: "079 123")
            }
            guard case .validationError(let message)? = invalid else {
                Issue.record("expected validationError, got \(String(describing: invalid))")
                return
            }
            #expect(message.contains("international format"))
            let offline = BookingService(client: ConciergeClient(baseURL: URL(string: "http://127.0.0.1:1")!))
            let network = await Self.caught { _ = try await offline.bookings(sessionToken: "x") }
            guard case .networkError? = network else {
                Issue.record("expected networkError, got \(String(describing: network))")
                return
            }
        }
    }

    @Test func anExpiredStoredSessionCountsAsSignedOut() {
        let now = Date()
        let store = InMemorySessionStore(
            SavedSession(
                customer: AuthenticatedCustomer(id: "cus_1", phone: "+41791234567"), sessionToken: "t",
                expiresAt: now.addingTimeInterval(-1)))
        let manager = AuthenticationManager(store: store, now: { now })
        #expect(!manager.isAuthenticated)
        #expect(manager.sessionToken == nil)
    }

    @Test func theFileStoreKeepsTheSessionPrivate() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kit-\(UUID().uuidString)/session.json")
        let store = FileSessionStore(url: url)
        let session = SavedSession(
            customer: AuthenticatedCustomer(id: "cus_1", phone: "+41791234567"), sessionToken: "secret",
            expiresAt: Date(timeIntervalSince1970: 2_000_000_000))
        try store.save(session)
        #expect(store.load() == session)
        let permissions = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        store.clear()
        #expect(store.load() == nil)
    }
}
