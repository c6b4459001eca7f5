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

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("sandbox/checkout/:paymentId", use: page)
        router.post("sandbox/checkout/:paymentId", use: submit)
    }

    @Sendable func page(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("paymentId")
        guard let payment = try await sandbox.payment(id: id) else { throw Self.notFound(id) }
        let amount = HTMLPage.escape(Money.formatCHF(payment.amountCents))
        let body: String
        if payment.status == .open {
            body = """
                <h1>Sandbox checkout</h1>
                <p>\(HTMLPage.escape(payment.description))</p>
                <p><strong>\(amount)</strong></p>
                <form method="post" action="/sandbox/checkout/\(HTMLPage.escape(id))">
                <button class="pay" name="outcome" value="paid">Pay \(amount)</button>
                <button name="outcome" value="failed">Fail</button>
                <button name="outcome" value="canceled">Cancel</button>
                </form>
                <p class="note">Test mode: no money moves.</p>
                """
        } else {
            body = """
                <h1>Sandbox checkout</h1>
                <p>This payment is \(HTMLPage.escape(payment.status.rawValue)); it cannot be paid any more.</p>
                <p><a href="\(HTMLPage.escape(payment.redirectURL))">Back to the booking</a></p>
                """
        }
        return HTMLPage.response(title: "Sandbox checkout", body: body)
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
