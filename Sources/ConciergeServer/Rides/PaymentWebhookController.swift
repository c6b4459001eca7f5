import ConciergeCore
import ConciergeProviders
import Foundation
import Hummingbird
import NIOCore

/// Provider webhooks. Both resolve the payment in the platform ledger and hand it to the vertical
/// that owns it, the same dispatch the return page and the sandbox checkout go through.
struct PaymentWebhookController {
    let dispatcher: PaymentDispatcher
    let payments: any PaymentProvider
    let stripeVerifiers: [StripeWebhookVerifier]
    let events: any WebhookEventLog
    let clock: any TimeSource
    /// Counts each delivery by what became of it (`concierge_webhook_deliveries_total`).
    let recorder: MetricsRecorder

    func addRoutes(to router: Router<AppRequestContext>) {
        router.post("payments/mollie/webhook", use: mollie)
        router.post("payments/stripe/webhook", use: stripe)
    }

    /// Mollie posts only `id=tr_…`: fetch the payment and apply it. 200 for unknown ids (so
    /// nobody learns which exist); 503 when it cannot be applied now, so Mollie retries. Only ids
    /// in our own ledger are fetched: the webhook is unauthenticated, and fetching any id would
    /// let a flood spend the operator's Mollie quota (security review finding 9).
    @Sendable func mollie(request: Request, context: AppRequestContext) async throws -> Response {
        guard payments.name == "mollie" else { return Response(status: .notFound) }
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        guard let id = FormFields.first("id", in: String(buffer: buffer)), Self.isMolliePaymentID(id) else {
            recorder.webhookDelivered(provider: "mollie", result: "rejected")
            throw ConciergeError(
                .invalidInput, code: "invalid_request", message: "Send the payment id (tr_…) as the form field 'id'.")
        }
        guard try await dispatcher.isKnown(provider: payments.name, providerPaymentID: id) else {
            context.logger.info("mollie webhook for an unknown payment")
            recorder.webhookDelivered(provider: "mollie", result: "unknown")
            return Response(status: .ok)
        }
        do {
            let snapshot = try await payments.fetchPayment(id: id)
            try await dispatcher.dispatch(snapshot, provider: payments.name)
        } catch let error as ConciergeError where error.code == "payment_not_found" {
            context.logger.info("mollie webhook for an unknown payment")
            recorder.webhookDelivered(provider: "mollie", result: "unknown")
            return Response(status: .ok)
        } catch {
            context.logger.warning("mollie webhook not applied yet: \(error)")
            recorder.webhookDelivered(provider: "mollie", result: "retry")
            return Response(status: .serviceUnavailable)
        }
        recorder.webhookDelivered(provider: "mollie", result: "applied")
        return Response(status: .ok)
    }

    /// Stripe signs the raw body; an event applied before is acknowledged and ignored.
    @Sendable func stripe(request: Request, context: AppRequestContext) async throws -> Response {
        guard payments.name == "stripe" else { return Response(status: .notFound) }
        let payload = Data(buffer: try await request.body.collect(upTo: context.maxUploadSize))
        let header = request.headers[.init("Stripe-Signature")!]
        var verified: StripeWebhookEvent?
        var lastError: (any Error)?
        for verifier in stripeVerifiers {
            do {
                verified = try verifier.verify(payload: payload, signatureHeader: header, now: clock.now)
                break
            } catch {
                lastError = error
            }
        }
        guard let event = verified else {
            recorder.webhookDelivered(provider: "stripe", result: "rejected")
            throw lastError
                ?? ConciergeError(.invalidInput, code: "invalid_signature", message: "The Stripe signature is invalid.")
        }
        guard let sessionID = event.checkoutSessionID else {
            recorder.webhookDelivered(provider: "stripe", result: "ignored")
            return Response(status: .ok)
        }
        let now = clock.now
        // A claim not marked applied within a minute belongs to a delivery that died.
        guard
            try await events.claim(
                provider: "stripe", eventID: event.id, at: now, staleBefore: now.addingTimeInterval(-60))
        else {
            recorder.webhookDelivered(provider: "stripe", result: "duplicate")
            return Response(status: .ok)
        }
        do {
            try await dispatcher.dispatch(try await payments.fetchPayment(id: sessionID), provider: payments.name)
        } catch {
            try? await events.release(provider: "stripe", eventID: event.id)
            context.logger.warning("stripe webhook not applied yet: \(error)")
            recorder.webhookDelivered(provider: "stripe", result: "retry")
            return Response(status: .serviceUnavailable)
        }
        try await events.markApplied(provider: "stripe", eventID: event.id, at: clock.now)
        recorder.webhookDelivered(provider: "stripe", result: "applied")
        return Response(status: .ok)
    }

    /// `tr_` and Mollie's alphanumeric id.
    static func isMolliePaymentID(_ id: String) -> Bool {
        id.hasPrefix("tr_") && (8...64).contains(id.count)
            && id.utf8.dropFirst(3).allSatisfy {
                (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0)
            }
    }
}
