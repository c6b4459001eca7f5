import Foundation
import Hummingbird

/// The languages the pages speak. A visitor's choice comes from `?lang=` (the switcher, then kept
/// in a cookie), the cookie, or `Accept-Language`, in that order; English otherwise.
enum WebLanguage: String, Sendable, CaseIterable {
    case en, de

    /// The Foundation locale numbers and dates are formatted in (Swiss conventions: CHF, 24 h).
    var locale: Locale { Locale(identifier: self == .de ? "de_CH" : "en_CH") }

    /// The language a request asks for; `cookie` is the switcher's remembered choice.
    static func negotiate(query: String?, cookie: String?, acceptLanguage: String?) -> WebLanguage {
        if let query, let language = WebLanguage(rawValue: query) { return language }
        if let cookie, let language = WebLanguage(rawValue: cookie) { return language }
        for range in (acceptLanguage ?? "").split(separator: ",") {
            let tag = range.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            let primary = tag.split(separator: "-").first.map(String.init) ?? ""
            if let language = WebLanguage(rawValue: primary) { return language }
        }
        return .en
    }
}
