import ConciergeCore
import HTTPTypes

/// A refusal of the account services as a page says it: next to the field it concerns (nil:
/// at the top of the page), as a sentence in the visitor's language, with the status the API
/// would answer. The rule stays in the service; this only words its answer.
struct AccountPageError: Sendable {
    let field: String?
    let message: String
    let status: HTTPResponse.Status

    /// Which field each service error concerns. A page passes its own `fields` for codes whose
    /// field differs (a wrong password in the link form is `link_password`).
    static let defaultFields: [String: String] = [
        "invalid_credentials": "password", "invalid_email": "email", "invalid_username": "username",
        "invalid_name": "name", "weak_password": "password", "email_taken": "email",
        "username_taken": "username", "missing_login": "email", "invalid_phone": "phone",
        "invalid_code": "code", "code_expired": "code",
    ]

    /// The page's wording of `error`, or nil when it is not a refusal of the service (a failure
    /// the page middleware answers).
    static func from(
        _ error: any Error, strings: WebStrings, language: WebLanguage, fields: [String: String] = [:],
        mail: Bool = false
    ) -> AccountPageError? {
        guard let error = error as? ConciergeError else { return nil }
        let field = fields[error.code] ?? defaultFields[error.code]
        if case .tooManyRequests(let seconds) = error.category {
            let minutes = max(1, ((seconds ?? 60) + 59) / 60)
            let key = mail ? "error_mail_rate_limited" : "error_rate_limited"
            let sentence = error.code == "rate_limited" ? strings.text("account", key, language) : error.message
            return AccountPageError(
                field: nil, message: sentence.replacingOccurrences(of: "{minutes}", with: String(minutes)),
                status: .tooManyRequests)
        }
        let key = "error_\(error.code)"
        let worded = strings.text("account", key, language)
        // A code without words of its own keeps the service's sentence (English).
        let message = worded == "account.\(key)" ? error.message : worded
        return AccountPageError(field: field, message: message, status: status(of: error.category))
    }

    private static func status(of category: ConciergeError.Category) -> HTTPResponse.Status {
        ErrorMiddleware<AppRequestContext>.status(of: category).0
    }

    /// The template data of this error: `errors.<field>` or `pageError`.
    var data: [String: Any] {
        if let field { return ["errors": [field: message]] }
        return ["pageError": message]
    }
}
