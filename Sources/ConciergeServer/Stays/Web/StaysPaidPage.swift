import ConciergeCore
import Hummingbird

/// `/stays/paid?session=…`: where a web guest lands after the payment provider's checkout. Like
/// the API's return, it asks the provider where the payment stands first (the return may come
/// before the webhook) and hands that to the platform's dispatcher; then the guest sees their
/// reservation. Someone else holding the link sees only where the payment stands.
struct StaysPaidPage {
    let web: WebFrontEnd
    let stays: StaysService
    let payments: any PaymentProvider
    let dispatcher: PaymentDispatcher

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("paid", use: page)
    }

    @Sendable func page(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let secret = request.uri.queryParameters.get("session") ?? ""
        guard (1...100).contains(secret.count) else { throw ConciergeError.staysReservationNotFound }
        var (record, _) = try await stays.reservation(returnSecret: secret)
        if record.status == .pendingPayment, let prepayment = record.prepayment, prepayment.provider == payments.name,
            let snapshot = try? await payments.fetchPayment(id: prepayment.providerPaymentID)
        {
            try await dispatcher.dispatch(snapshot, provider: payments.name)
            (record, _) = try await stays.reservation(returnSecret: secret)
        }
        let cleared = StaysWebPaymentReturnMiddleware.clearingCookie(web: web)
        if visit.accountID == record.accountID {
            return web.redirect("/stays/reservations/\(record.id)?paid=1", visit: visit, cookies: [cleared])
        }
        let view = StaysWebView(web: web, hotel: try await stays.hotel(), language: visit.language)
        var answered = visit
        answered.cookies.append(cleared)
        return web.page(
            "stays/paid", title: view.text("paid_title"),
            data: [
                "message": StaysReservationPages.paymentNotice(record, view: view),
                "signIn":
                    "\(StaysReservePage.signIn)?next=\(WebFrontEnd.queryEscaped("/stays/reservations/\(record.id)"))",
            ], visit: answered, styles: ["stays.css"])
    }
}
