import ConciergeCore
import Foundation
import Hummingbird

/// `/ops/orders`: the operator's view of every vertical's orders with their payments and refunds,
/// filtered by vertical and state, newest first, 25 a page. An open order of a vertical with a
/// canceller can be cancelled for its customer, under the customer's own rule
/// (`OperationsOrdersPagesController+Cancel.swift`).
struct OperationsOrdersPagesController {
    let web: WebFrontEnd
    let ledger: OperationsOrdersLedger
    let verticals: [String]
    /// The selling verticals' customer cancellations, by vertical.
    let cancellers: [String: any OrderCanceller]
    static let pageSize = 25
    /// States with nothing left to cancel: no button is offered for them.
    static let closedStates: Set<String> = ["cancelled", "refunded", "expired"]

    func addRoutes(to router: Router<AppRequestContext>) {
        guard web.adminToken != nil else { return }
        let pages = web.pages(on: router, "ops")
        pages.get("orders", use: orders)
        pages.get("orders/:id/cancel", use: confirmCancel)
        pages.post("orders/:id/cancel", use: cancel)
    }

    @Sendable func orders(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        try web.requireOperator(visit)
        let query = request.uri.queryParameters
        let vertical = query.get("vertical").flatMap { verticals.contains($0) ? $0 : nil }
        let states = try await ledger.states(vertical: vertical)
        let state = query.get("state").flatMap { states.contains($0) ? $0 : nil }
        let page = max(1, min(10_000, Int(query.get("page") ?? "") ?? 1))
        let entries = try await ledger.orders(
            vertical: vertical, state: state, limit: Self.pageSize + 1, offset: (page - 1) * Self.pageSize)
        let language = visit.language
        func word(_ key: String) -> String { web.strings.text("account", key, language) }
        func link(page: Int) -> String {
            var parameters: [String] = []
            if let vertical { parameters.append("vertical=\(vertical)") }
            if let state { parameters.append("state=\(WebFrontEnd.queryEscaped(state))") }
            parameters.append("page=\(page)")
            return "/ops/orders?" + parameters.joined(separator: "&")
        }
        var data: [String: Any] = [
            "verticals": verticals.map {
                ["value": $0, "label": verticalName($0, language), "selected": $0 == vertical] as [String: Any]
            },
            "states": states.map {
                ["value": $0, "label": Self.readable($0), "selected": $0 == state] as [String: Any]
            },
            "orders": entries.prefix(Self.pageSize).map { row($0, language: language) },
            "hasOrders": !entries.isEmpty,
            "pageLabel": word("orders_page").replacingOccurrences(of: "{page}", with: String(page)),
        ]
        // Back from cancelling an order for its customer (`+Cancel.swift`).
        if let reference = query.get("cancelled").flatMap(Self.plausibleReference) {
            data["notice"] = word("orders_cancelled_notice").replacingOccurrences(of: "{reference}", with: reference)
        }
        // Absent, not empty: an empty string still opens a Mustache section.
        if page > 1 { data["newer"] = link(page: page - 1) }
        if entries.count > Self.pageSize { data["older"] = link(page: page + 1) }
        return web.page(
            "ops/orders", title: word("orders_title"), data: data, visit: visit, styles: ["account.css"])
    }

    func row(_ entry: OperationsOrdersLedger.Entry, language: WebLanguage) -> [String: Any] {
        let order = entry.order
        var ledgerLines: [String] = []
        for (payment, refunds) in entry.payments {
            ledgerLines.append(
                "\(payment.provider) \(payment.providerPaymentID): \(Self.readable(payment.status.rawValue)), "
                    + WebFormat.money(cents: payment.amountCents, currency: payment.currency, language)
                    + (payment.refundedCents > 0
                        ? " (\(web.strings.text("account", "orders_refunded", language)) "
                            + WebFormat.money(cents: payment.refundedCents, currency: payment.currency, language)
                            + ")" : ""))
            for refund in refunds {
                ledgerLines.append(
                    "\(web.strings.text("account", "orders_refund", language)) "
                        + WebFormat.money(cents: refund.amountCents, currency: refund.currency, language) + ", "
                        + WebFormat.dateTime(refund.createdAt, language) + " — " + refund.reason)
            }
        }
        var row: [String: Any] = [
            "reference": order.reference, "vertical": verticalName(order.vertical, language),
            "amount": WebFormat.money(cents: order.amountCents, currency: order.currency, language),
            "state": Self.readable(order.state), "created": WebFormat.dateTime(order.createdAt, language),
            "ledger": ledgerLines, "hasLedger": !ledgerLines.isEmpty,
        ]
        if isCancellable(order) { row["cancelHref"] = "/ops/orders/\(order.id)/cancel" }
        return row
    }

    func isCancellable(_ order: OrderSummary) -> Bool {
        cancellers[order.vertical] != nil && !Self.closedStates.contains(order.state)
    }

    /// The vertical's name as the navigation says it.
    func verticalName(_ vertical: String, _ language: WebLanguage) -> String {
        let name = web.strings.text("common", "nav_\(vertical)", language)
        return name.hasPrefix("common.") ? vertical : name
    }

    /// `awaiting_payment` → `awaiting payment`.
    static func readable(_ state: String) -> String {
        state.replacingOccurrences(of: "_", with: " ")
    }
}
