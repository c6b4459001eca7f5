import ConciergeCore
import Foundation
import Hummingbird

/// The rides pages of the web front end: SMS sign-in, the booking form with its pricing step,
/// checkout, the confirmation, the customer's trips, and the operator's dispatch page. Every page
/// calls the same services the rides API calls, so the web follows the API's rules exactly.
struct RidesWebPages: Sendable {
    let web: WebFrontEnd
    let signIn: SignInService
    let places: any PlacesProvider
    let pricing: RidePricingService
    /// Reads, cancellations and dispatch: the API's own service.
    let bookings: BookingService
    /// Creates web bookings, whose checkout returns to the web's confirmation page.
    let webBookings: BookingService
    let payments: any PaymentProvider
    let dispatcher: PaymentDispatcher
    let rules: BookingRules
    let clock: any TimeSource
    let random: any RandomSource

    func addRoutes(to router: Router<AppRequestContext>) {
        let pages = web.pages(on: router, "rides")
        let signInPages = RidesSignInPages(rides: self)
        let bookingPages = RidesBookingPages(rides: self)
        let tripPages = RidesTripPages(rides: self)
        pages.get("", use: bookingPages.start)
        pages.get("quote", use: bookingPages.quote)
        pages.post("book", use: bookingPages.book)
        pages.post("sign-in", use: signInPages.sendCode)
        pages.get("sign-in/code", use: signInPages.codePage)
        pages.post("sign-in/code", use: signInPages.verifyCode)
        pages.post("sign-out", use: signInPages.signOut)
        pages.get("trips", use: tripPages.list)
        pages.get("trips/:reference", use: tripPages.trip)
        pages.post("trips/:reference/cancel", use: tripPages.cancel)
        if web.adminToken != nil {
            let dispatch = RidesDispatchPages(rides: self)
            let ops = web.pages(on: router, "ops/rides")
            ops.get("", use: dispatch.list)
            ops.get(":reference", use: dispatch.ride)
            ops.post(":reference/status", use: dispatch.move)
        }
    }

    // MARK: Shared by the pages

    /// The rides customer behind the visitor's session cookie; nil when signed out, or when the
    /// session belongs to an account without a phone (signed in elsewhere on the site): rides
    /// then asks for the phone by SMS, as the app does.
    func customer(_ visit: WebVisit) async -> Customer? {
        guard visit.isSignedIn else { return nil }
        return try? await signIn.authenticate(token: visit.sessionToken).customer
    }

    /// The signed-in rides customer, or a redirect to `/rides` to sign in and come back (to
    /// `next`, for a form whose own path cannot be opened again).
    func requireCustomer(_ visit: WebVisit, next: String? = nil) async throws -> Customer {
        guard let customer = await customer(visit) else {
            throw WebRedirect(to: "/rides?next=\(WebFrontEnd.queryEscaped(next ?? visit.path))")
        }
        return customer
    }

    func text(_ key: String, _ visit: WebVisit, _ values: [String: String] = [:]) -> String {
        web.strings.text("rides", key, visit.language, values)
    }

    /// The status a ride is in, in the visitor's words.
    func statusLabel(_ state: BookingState, _ visit: WebVisit) -> String {
        text("status_\(state.rawValue)", visit)
    }

    func classLabel(_ vehicleClass: VehicleClass, _ visit: WebVisit) -> String {
        text("class_\(vehicleClass.rawValue)", visit)
    }
}
