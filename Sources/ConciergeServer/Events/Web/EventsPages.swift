import ConciergeCore
import ConciergeStore
import Hummingbird

/// The events vertical's web pages, server-rendered and working without JavaScript, on the same
/// `EventsService` and accounts as the API under `/events/api`:
/// - `/events` (shows, search, filters), `/events/shows/{id}` (seat map, seat list, best available),
///   `POST /events/shows/{id}/hold`, `/events/orders/{id}` (hold countdown, Pay, tickets),
///   `POST /events/orders/{id}/cancel`, `/events/checkout-return`, `/events/tickets`,
///   `/events/tickets/{order}/{seat}.svg`;
/// - `/events/verify-email`, `/events/reset-password` (the account emails' links);
/// - `/ops/scanner` and `/ops/events` for operators.
struct EventsPages {
    let web: WebFrontEnd
    let events: EventsService
    let accounts: EventsAccounts
    let ledger: SQLPaymentLedger

    func addRoutes(to router: Router<AppRequestContext>) {
        let pages = web.pages(on: router, "events")
        let list = EventsShowListPage(web: web, events: events)
        let show = EventsShowPage(web: web, events: events)
        let checkout = EventsCheckoutPages(
            web: web, events: events, accounts: accounts, ledger: ledger, showPage: show)
        let tickets = EventsTicketsPage(web: web, events: events)
        let account = EventsAccountPages(web: web, accounts: accounts)
        pages.get("", use: list.list)
        pages.get("shows/:id", use: show.show)
        pages.post("shows/:id/hold", use: checkout.hold)
        pages.get("orders/:id", use: checkout.order)
        pages.post("orders/:id/cancel", use: checkout.cancel)
        pages.get("checkout-return", use: checkout.checkoutReturn)
        pages.get("tickets", use: tickets.tickets)
        pages.get("tickets/:id/{seatId}.svg", use: checkout.ticketImage)
        pages.get("verify-email", use: account.verifyPage)
        pages.post("verify-email", use: account.verifyEmail)
        pages.post("resend-verification", use: account.resend)
        pages.get("reset-password", use: account.resetPage)
        pages.post("reset-password", use: account.resetPassword)
        pages.post("forgot-password", use: account.forgot)
        guard web.adminToken != nil else { return }
        let ops = web.pages(on: router, "ops")
        let scanner = EventsScannerPage(web: web, events: events)
        ops.get("scanner", use: scanner.page)
        ops.post("scanner", use: scanner.scan)
        ops.get("events", use: EventsSalesPage(web: web, events: events).page)
    }
}
