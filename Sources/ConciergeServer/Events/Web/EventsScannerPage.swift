import ConciergeCore
import Foundation
import HTTPTypes
import Hummingbird

/// `/ops/scanner`: the door. The operator picks the door's show and gate and checks a ticket in
/// by its code, typed or read by the camera (`events-scanner.js` fills the same field and sends
/// the same form), through `EventsService.checkIn` (the service of `POST /events/api/checkin`),
/// so a ticket is admitted exactly once. The answer is carried to the page after the redirect
/// in a short-lived cookie (`EventsScanAnswer`), never in the address.
struct EventsScannerPage {
    let web: WebFrontEnd
    let events: EventsService

    @Sendable func page(request: Request, context: AppRequestContext) async throws -> Response {
        var visit = await web.visit(request)
        try web.requireOperator(visit)
        let words = EventsPageWords(web, visit)
        var data: [String: Any] = [:]
        if let answer = EventsScanAnswer.read(request) {
            data["answer"] = answer.sentence(words)
            data["admitted"] = answer.result == CheckInResult.Outcome.ok.rawValue
            visit.cookies.append(EventsScanAnswer.clearing(web))
        }
        let chosen = request.uri.queryParameters.get("show") ?? ""
        let gate = request.uri.queryParameters.get("gate") ?? "main"
        return try await render(visit, data: data, show: chosen, gate: gate)
    }

    @Sendable func scan(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        try web.requireOperator(visit)
        let form = try await web.form(request, context: context, visit: visit)
        let words = EventsPageWords(web, visit)
        let code = String((form["code"] ?? "").prefix(400))
        let gate = String((form["gate"].flatMap { $0.isEmpty ? nil : $0 } ?? "main").prefix(100))
        var show = String((form["show"] ?? "").prefix(100))
        guard !code.isEmpty else {
            return try await render(
                visit, data: ["codeError": words.text("scan_error_no_code")], show: show, gate: gate,
                status: .badRequest)
        }
        // A scanned code names its show; a typed ticket code needs the door's show.
        let signed = code.hasPrefix("CEV") ? code : nil
        if show.isEmpty, let signed, let verified = events.signer.verify(signed) { show = verified.showID }
        guard !show.isEmpty else {
            return try await render(
                visit, data: ["showError": words.text("scan_error_no_show"), "code": code], show: show, gate: gate,
                status: .badRequest)
        }
        // The audit names the order a signed code carries (else the show) and the gate, never a
        // typed code (it admits its seat). A scan that admits writes its entry with the
        // admission; one that finds nothing to admit writes it on its own with the outcome.
        let subject = signed.flatMap { events.signer.verify($0)?.orderID } ?? show
        let result = try await web.operatorAction(
            visit, "events.check_in", subject: subject, detail: "gate \(gate)",
            unwritten: { (result: CheckInResult) in "gate \(gate): \(result.outcome.rawValue)" }
        ) { try await events.checkIn(qrCode: signed, secret: signed == nil ? code : nil, showID: show, gate: gate) }
        let answer = EventsScanAnswer(
            result: result.outcome.rawValue, seat: result.seat ?? "", attendee: result.attendee ?? "",
            firstAt: result.firstScannedAt.map { WebFormat.dateTime($0, visit.language) } ?? "")
        let chosen = form["show"] ?? ""
        return web.redirect(
            "/ops/scanner?show=\(WebFrontEnd.queryEscaped(chosen))&gate=\(WebFrontEnd.queryEscaped(gate))",
            visit: visit, cookies: [answer.cookie(web)])
    }

    private func render(
        _ visit: WebVisit, data: [String: Any], show: String, gate: String, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let words = EventsPageWords(web, visit)
        var query = ShowQuery()
        query.limit = 100
        let shows = try await events.shows(query)
        var data = data
        data["shows"] = shows.map { summary in
            [
                "id": summary.show.id, "selected": summary.show.id == show,
                "label": "\(summary.show.title) — \(words.showTime(summary.show.startsAt, venue: summary.venue))",
            ] as [String: Any]
        }
        data["gate"] = gate
        return web.page(
            "ops/scanner", title: words.text("scanner_title"), data: data, visit: visit, status: status,
            scripts: ["events-scanner.js"], styles: ["events.css"])
    }
}
