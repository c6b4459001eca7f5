import ConciergeKit
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The implementation guide's snippets, as written (SwiftUI aside), against `import ConciergeKit`
/// only — with a configured base URL instead of a hard-coded one. The one test that uses the
/// `.shared` instances, so it owns the process-wide configuration.
@Suite struct SeedGuideSnippetsTests {
    @Test func theGuidesSnippetsCompileAndRunAsWritten() async throws {
        // The Linux session store is a file under $XDG_CONFIG_HOME, which scripts/test points at a
        // throwaway folder. No setenv here: it would race Process.run in the suites that spawn
        // `concierge serve` at the same time (Foundation copies the environment unlocked).
        try await LiveServer.run { server in
            Concierge.configure(baseURL: server.baseURL)

            // Step 1: Authentication
            // 1. Send SMS code
            let response = try await VeramoAuthService.shared.requestSMSCode(
                phone: "+41791234567"
            )
            #expect(response.success)
            let smsCode = try await server.latestCode()

            // 2. Verify SMS code
            let (customer, sessionToken) = try await VeramoAuthService.shared.verifySMSCode(
                phone: "+41791234567",
                code: smsCode
            )

            // 3. Save authentication
            AuthenticationManager.shared.saveAuthentication(
                customer: customer,
                sessionToken: sessionToken
            )
            #expect(AuthenticationManager.shared.isAuthenticated)

            // Step 2: Location Selection
            let pickup = BookingLocation(
                placeId: "gz_iata_ZRH",
                description: "Zurich Airport"
            )
            let destination = BookingLocation(
                placeId: "gz_geo_2657896",
                description: "Hotel Baur au Lac, Zurich"
            )
            let pickupPlaceId = pickup.placeId
            let destinationPlaceId = destination.placeId

            // Time Zone Handling
            let swissTimeZone = TimeZone(identifier: "Europe/Zurich")!
            var swissCalendar = Calendar.current
            swissCalendar.timeZone = swissTimeZone
            let later = swissCalendar.dateComponents(
                [.year, .month, .day], from: Date().addingTimeInterval(5 * 86_400))
            var components = DateComponents()
            components.year = later.year
            components.month = later.month
            components.day = later.day
            components.hour = 14
            components.minute = 0
            components.timeZone = swissTimeZone
            let pickupDateTime = swissCalendar.date(from: components)!

            // Step 3: Pricing
            let pricingResponse = try await PricingService.shared.fetchPricing(
                originPlaceId: pickupPlaceId,
                destinationPlaceId: destinationPlaceId,
                pickupDatetime: pickupDateTime
            )
            #expect(pricingResponse.prices.business.vehicle == "Mercedes E-Class or similar")

            // Step 4: Create Booking
            let booking = try await BookingService.shared.createBooking(
                pickupPlaceId: pickup.placeId,
                pickupDescription: "Zurich Airport",
                destinationPlaceId: destination.placeId,
                destinationDescription: "Hotel Baur au Lac",
                dateTime: pickupDateTime,
                passengers: 2,
                vehicleClass: "business",
                flightNumber: "LX123",  // Optional
                sessionToken: sessionToken
            )
            var checkout: URL?
            if let checkoutUrl = URL(string: booking.checkoutUrl ?? "") {
                checkout = checkoutUrl
            }
            #expect(checkout != nil)
            #expect(booking.priceCents == pricingResponse.prices.business.priceCents)

            // Handling Session Expiration
            var showSessionExpiredAlert = false
            do {
                _ = try await BookingService.shared.createBooking(
                    pickupPlaceId: pickup.placeId, pickupDescription: "Zurich Airport",
                    destinationPlaceId: destination.placeId, destinationDescription: "Hotel Baur au Lac",
                    dateTime: pickupDateTime, passengers: 2, vehicleClass: "business", flightNumber: nil,
                    sessionToken: "expired-token")
            } catch BookingError.unauthorized {
                // Session expired
                AuthenticationManager.shared.logout()

                // Show alert and navigate to login
                showSessionExpiredAlert = true
            }
            #expect(showSessionExpiredAlert)
            #expect(!AuthenticationManager.shared.isAuthenticated)
        }
    }
}
