import ConciergeCore
import Hummingbird

/// The stays pages of the web front end: search, reserve (and pay), reservations, cancel,
/// registration and sign-in under `/stays/…` on paths no stays API route uses, and the front
/// desk's arrivals and occupancy under `/ops/stays`. They call the same services as the API.
struct StaysWebPages {
    let web: WebFrontEnd
    let stays: StaysService
    let accounts: StaysAccountService
    let sessions: SessionService
    /// The platform's "Continue with Apple/Google" for the sign-in page.
    let providerButtons: SignInProviderButtons
    let desk: StaysFrontDesk
    let payments: any PaymentProvider
    let dispatcher: PaymentDispatcher

    func addRoutes(to router: Router<AppRequestContext>) {
        let pages = web.pages(on: router, "stays")
        StaysSearchPage(web: web, stays: stays).addRoutes(to: pages)
        StaysReservePage(web: web, stays: stays, accounts: accounts).addRoutes(to: pages)
        StaysReservationPages(web: web, stays: stays, accounts: accounts).addRoutes(to: pages)
        StaysPaidPage(web: web, stays: stays, payments: payments, dispatcher: dispatcher).addRoutes(to: pages)
        StaysAccountPages(web: web, accounts: accounts, sessions: sessions, providerButtons: providerButtons)
            .addRoutes(to: pages)
        if web.adminToken != nil {
            StaysOperationsPage(web: web, stays: stays, desk: desk).addRoutes(to: web.pages(on: router, "ops"))
        }
    }
}
