import ConciergeCore
import Foundation
import Hummingbird

/// The last scan's answer, carried from the scan's POST to the page after its redirect in a
/// cookie of two minutes (base64 JSON), so a reload does not scan the ticket again and the
/// attendee's address never appears in a URL or a log line.
struct EventsScanAnswer: Codable, Equatable {
    static let cookieName = "concierge_scan"

    let result: String
    let seat: String
    let attendee: String
    let firstAt: String

    /// What the operator reads (and a screen reader announces): admitted, or why not.
    func sentence(_ words: EventsPageWords) -> String {
        let values = ["seat": seat, "attendee": attendee, "first": firstAt]
        switch CheckInResult.Outcome(rawValue: result) {
        case .ok: return words.text(attendee.isEmpty ? "scan_ok_anonymous" : "scan_ok", values)
        case .alreadyUsed: return words.text("scan_already_used", values)
        case .wrongShow: return words.text("scan_wrong_show", values)
        case .cancelled: return words.text("scan_cancelled", values)
        case .invalid, nil: return words.text("scan_invalid", values)
        }
    }

    func cookie(_ web: WebFrontEnd) -> String {
        let json = (try? JSONEncoder().encode(self)) ?? Data()
        return WebCookie.setting(Self.cookieName, json.base64EncodedString(), maxAge: 120, secure: web.secureCookies)
    }

    static func clearing(_ web: WebFrontEnd) -> String {
        WebCookie.setting(cookieName, "", maxAge: 0, secure: web.secureCookies)
    }

    static func read(_ request: Request) -> EventsScanAnswer? {
        guard let value = WebCookie.parse(request)[cookieName], !value.isEmpty, value.count < 2048,
            let data = Data(base64Encoded: value)
        else { return nil }
        return try? JSONDecoder().decode(EventsScanAnswer.self, from: data)
    }
}
