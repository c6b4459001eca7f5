import Foundation
import Hummingbird

/// A posted `application/x-www-form-urlencoded` form whose CSRF token has been checked. Fields
/// may repeat (checkboxes, the seat list's seats), so each name keeps every value.
struct WebForm: Sendable {
    private let fields: [String: [String]]

    init(body: String) {
        var fields: [String: [String]] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else { continue }
            let value = parts.count == 2 ? Self.decode(parts[1]) ?? "" : ""
            fields[name, default: []].append(value)
        }
        self.fields = fields
    }

    /// A GET form's fields: the request's query, decoded as browsers encode forms (`+` is a
    /// space), which `request.uri.queryParameters` does not do.
    init(queryOf request: Request) {
        self.init(body: request.uri.query ?? "")
    }

    /// The first value of `name`, trimmed; nil when absent.
    subscript(_ name: String) -> String? {
        fields[name]?.first?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every value of `name`, in the order posted.
    func all(_ name: String) -> [String] { fields[name] ?? [] }

    /// The first value of `name`, or an error naming the field the person must fill in.
    func required(_ name: String, label: String) throws -> String {
        guard let value = self[name], !value.isEmpty else { throw WebFieldError(field: name, message: label) }
        return value
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}

/// A form value a person must correct, shown next to the field it concerns.
struct WebFieldError: Error, Sendable {
    let field: String
    let message: String
}
