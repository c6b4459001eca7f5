import ConciergeCore
import Foundation
import Hummingbird

/// `/ops/audit`: the audit log, newest first, 50 a page — who signed in and out, and who
/// cancelled which order, moved which ride, scanned which ticket. Every value comes from the
/// database and is escaped by the template.
struct OperationsAuditPage {
    let web: WebFrontEnd
    static let pageSize = 50

    @Sendable func page(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        try web.requireOperator(visit)
        let language = visit.language
        func word(_ key: String) -> String { web.strings.text("ops", key, language) }
        let page = max(1, min(10_000, Int(request.uri.queryParameters.get("page") ?? "") ?? 1))
        let entries = try await web.operators.audit(limit: Self.pageSize + 1, offset: (page - 1) * Self.pageSize)
        var data: [String: Any] = [
            "entries": entries.prefix(Self.pageSize).map { entry in
                [
                    "at": WebFormat.dateTime(entry.at, language), "who": entry.operatorName,
                    "what": actionName(entry.action, language), "subject": entry.subject, "detail": entry.detail,
                ]
            },
            "hasEntries": !entries.isEmpty,
            "pageLabel": word("audit_page").replacingOccurrences(of: "{page}", with: String(page)),
        ]
        // Absent, not empty: an empty string still opens a Mustache section.
        if page > 1 { data["newer"] = "/ops/audit?page=\(page - 1)" }
        if entries.count > Self.pageSize { data["older"] = "/ops/audit?page=\(page + 1)" }
        return web.page(
            "ops/audit", title: word("audit_title"), data: data, visit: visit, styles: ["account.css"])
    }

    /// The action in the visitor's language; a key this version has no words for shows as it is.
    private func actionName(_ action: String, _ language: WebLanguage) -> String {
        let key = "action_" + action.replacingOccurrences(of: ".", with: "_")
        return web.strings.table(language)["ops"]?[key] ?? action
    }
}
