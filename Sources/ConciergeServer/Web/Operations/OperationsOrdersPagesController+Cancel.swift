import ConciergeCore
import Foundation
import Hummingbird

/// Cancelling an order for its customer: a confirm page, then the vertical's own customer
/// cancellation (`OrderCanceller`). A refusal — too late, already moved on — is the vertical's
/// sentence on the confirm page; nothing here decides what may be cancelled or refunded.
extension OperationsOrdersPagesController {
    @Sendable func confirmCancel(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        try web.requireOperator(visit)
        let entry = try await cancellable(try context.parameters.require("id"))
        return confirmPage(entry, refusal: nil, visit: visit)
    }

    @Sendable func cancel(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        try web.requireOperator(visit)
        _ = try await web.form(request, context: context, visit: visit)
        let entry = try await cancellable(try context.parameters.require("id"))
        guard let canceller = cancellers[entry.order.vertical] else { throw Self.notCancellable }
        do {
            let summary = try await web.operatorAction(
                visit, "order.cancel", subject: entry.order.id, detail: entry.order.reference
            ) { try await canceller.cancelForCustomer(orderID: entry.order.id) }
            context.logger.info("operator cancelled order \(entry.order.reference) for its customer: \(summary)")
            let reference = WebFrontEnd.queryEscaped(entry.order.reference)
            return web.redirect("/ops/orders?cancelled=\(reference)", visit: visit)
        } catch let refusal as ConciergeError {
            return confirmPage(entry, refusal: refusal, visit: visit)
        }
    }

    // MARK: Helpers

    /// The order when its vertical can cancel it and it is still open; 404 otherwise, so a stale
    /// or typed link says so instead of offering a button that cannot work.
    private func cancellable(_ id: String) async throws -> OperationsOrdersLedger.Entry {
        guard let entry = try await ledger.order(id: id), isCancellable(entry.order) else {
            throw Self.notCancellable
        }
        return entry
    }

    private func confirmPage(_ entry: OperationsOrdersLedger.Entry, refusal: ConciergeError?, visit: WebVisit)
        -> Response
    {
        let language = visit.language
        func word(_ key: String) -> String { web.strings.text("account", key, language) }
        var data: [String: Any] = [
            "order": row(entry, language: language), "action": "/ops/orders/\(entry.order.id)/cancel",
            "heading": word("orders_cancel_title").replacingOccurrences(of: "{reference}", with: entry.order.reference),
        ]
        var status: HTTPResponse.Status = .ok
        if let refusal {
            // The vertical's own sentence (in English, as its API says it), after the page's words.
            data["refusal"] = word("orders_cancel_refused") + " " + refusal.message
            status = ErrorMiddleware<AppRequestContext>.status(of: refusal.category).0
        }
        return web.page(
            "ops/order-cancel", title: data["heading"] as? String ?? "", data: data, visit: visit, status: status,
            styles: ["account.css"])
    }

    /// A reference as orders have them (`VRM-…`, `E-…`): anything else in the notice's query is
    /// not repeated on the page.
    static func plausibleReference(_ text: String) -> String? {
        let plausible = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        return (1...40).contains(text.count) && plausible ? text : nil
    }

    static let notCancellable = ConciergeError(
        .notFound, code: "order_not_cancellable", message: "There is no open order here to cancel.")
}
