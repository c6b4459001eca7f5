import ConciergeCore
import Foundation
import Hummingbird

/// The sandbox checkout (dev mode only): a page with the amount and Pay / Fail / Cancel, like
/// Mollie's test mode. Posting an outcome applies it, dispatches it to the payment's owner as a
/// provider webhook would, and sends the browser to the owner's return page with a 303. It
/// knows no vertical: the payments ledger says whose payment it is.
struct SandboxCheckoutController {
    let sandbox: SandboxPaymentProvider
    let dispatcher: PaymentDispatcher
    /// Counts the outcomes the customer picks (the dispatcher's count finds the ledger moved).
    let recorder: MetricsRecorder
    /// The page's words (`sandbox` group) in the visitor's language, as the site's pages have them.
    let strings: WebStrings

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("sandbox/checkout/:paymentId", use: page)
        router.post("sandbox/checkout/:paymentId", use: submit)
    }

    @Sendable func page(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("paymentId")
        guard let payment = try await sandbox.payment(id: id) else { throw Self.notFound(id) }
        // The visitor's language, chosen as on every page (switcher cookie, then the browser's).
        let language = WebLanguage.negotiate(
            query: request.uri.queryParameters.get("lang"), cookie: WebCookie.parse(request)[WebCookie.language],
            acceptLanguage: request.headers[.acceptLanguage])
        func text(_ key: String, _ values: [String: String] = [:]) -> String {
            HTMLPage.escape(strings.text("sandbox", key, language, values))
        }
        let amount = Money.formatCHF(payment.amountCents)
        let body: String
        if payment.status == .open {
            body = """
                <h1>\(text("title"))</h1>
                <p>\(HTMLPage.escape(payment.description))</p>
                <p><strong>\(HTMLPage.escape(amount))</strong></p>
                <form method="post" action="/sandbox/checkout/\(HTMLPage.escape(id))">
                <button class="pay" name="outcome" value="paid">\(text("pay", ["amount": amount]))</button>
                <button name="outcome" value="failed">\(text("fail"))</button>
                <button name="outcome" value="canceled">\(text("cancel"))</button>
                </form>
                <p class="note">\(text("note"))</p>
                """
        } else {
            body = """
                <h1>\(text("title"))</h1>
                <p>\(text("closed", ["status": payment.status.rawValue]))</p>
                <p><a href="\(HTMLPage.escape(payment.redirectURL))">\(text("back"))</a></p>
                """
        }
        return HTMLPage.response(
            title: strings.text("sandbox", "title", language), body: body, language: language.rawValue)
    }

    @Sendable func submit(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("paymentId")
        guard let payment = try await sandbox.payment(id: id) else { throw Self.notFound(id) }
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        guard let field = FormFields.first("outcome", in: String(buffer: buffer)) else {
            throw ConciergeError(.invalidInput, code: "invalid_request", message: "Send the form field 'outcome'.")
        }
        guard let outcome = PaymentStatus(rawValue: field), [.paid, .failed, .canceled].contains(outcome) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_request", message: "The outcome must be paid, failed or canceled.")
        }
        let snapshot = try await sandbox.completeCheckout(id: id, outcome: outcome)
        // Exactly what a provider webhook does next.
        try await dispatcher.dispatch(snapshot, provider: sandbox.name)
        if payment.status != snapshot.status {
            recorder.paymentReached(provider: sandbox.name, outcome: snapshot.status.rawValue)
        }
        return Response(status: .seeOther, headers: [.location: payment.redirectURL])
    }

    static func notFound(_ id: String) -> ConciergeError {
        ConciergeError(.notFound, code: "payment_not_found", message: "There is no sandbox payment '\(id.prefix(40))'.")
    }
}
