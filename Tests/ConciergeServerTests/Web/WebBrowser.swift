import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore

/// A browser's part in in-process page tests: keeps the cookies the server sets, reads the CSRF
/// token of the last page and posts forms with it, and follows redirects when asked.
struct WebBrowser {
    let client: any TestClientProtocol
    private(set) var cookies: [String: String] = [:]
    private(set) var lastPage: WebPage?

    init(client: any TestClientProtocol) {
        self.client = client
    }

    /// A browser already signed in: its session cookie holds a platform session's token (opened
    /// through an API, as the account pages would), in `language`.
    static func signedIn(client: any TestClientProtocol, token: String, language: String = "en") -> WebBrowser {
        var browser = WebBrowser(client: client)
        browser.setCookie("concierge_session", token)
        browser.setCookie("concierge_lang", language)
        return browser
    }

    /// Sets a cookie as if the server had (a session opened through an API, say).
    mutating func setCookie(_ name: String, _ value: String) {
        cookies[name] = value
    }

    /// GET `path`; redirects are followed unless `follow` is false.
    mutating func get(_ path: String, headers: HTTPFields = [:], follow: Bool = true) async throws -> WebPage {
        let page = try await send(.get, path, body: nil, headers: headers)
        return follow ? try await following(page) : page
    }

    /// POSTs a form with the last page's CSRF token (unless `csrf` is false or the form names its
    /// own `_csrf`); redirects are followed unless `follow` is false.
    mutating func post(
        _ path: String, form: [(String, String)], csrf: Bool = true, follow: Bool = true, headers: HTTPFields = [:]
    ) async throws -> WebPage {
        var fields = form
        if csrf, !fields.contains(where: { $0.0 == "_csrf" }), let token = lastPage?.csrfToken {
            fields.append(("_csrf", token))
        }
        let body = fields.map { "\(Self.formEscaped($0.0))=\(Self.formEscaped($0.1))" }.joined(separator: "&")
        var headers = headers
        headers[.contentType] = "application/x-www-form-urlencoded"
        let page = try await send(.post, path, body: body, headers: headers)
        return follow ? try await following(page) : page
    }

    private mutating func following(_ first: WebPage) async throws -> WebPage {
        var page = first
        var hops = 0
        while let location = page.location, [301, 302, 303, 307].contains(page.status), hops < 8 {
            page = try await send(.get, Self.pathOnly(location), body: nil, headers: [:])
            hops += 1
        }
        return page
    }

    private mutating func send(_ method: HTTPRequest.Method, _ path: String, body: String?, headers: HTTPFields)
        async throws -> WebPage
    {
        var headers = headers
        if !cookies.isEmpty {
            headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")
        }
        let response = try await client.execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        for value in response.headers[values: .setCookie] {
            let pair = value.split(separator: ";").first.map(String.init) ?? ""
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let name = String(parts[0])
            if value.contains("Max-Age=0") || parts[1].isEmpty {
                cookies[name] = nil
            } else {
                cookies[name] = String(parts[1])
            }
        }
        let page = WebPage(
            status: Int(response.status.code), headers: response.headers, html: String(buffer: response.body))
        // The last page with a form gives the CSRF token (an image or a JSON answer has none).
        if page.location == nil, page.csrfToken != nil { lastPage = page }
        return page
    }

    /// `http://host:port/x?y` → `/x?y` (the public URL's redirects, in process there is one host).
    static func pathOnly(_ location: String) -> String {
        guard location.hasPrefix("http://") || location.hasPrefix("https://"),
            let url = URLComponents(string: location)
        else { return location }
        return url.percentEncodedPath + (url.percentEncodedQuery.map { "?\($0)" } ?? "")
    }

    static func formEscaped(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text).replacingOccurrences(
            of: "%20", with: "+")
    }
}

/// One answer as a browser sees it.
struct WebPage {
    let status: Int
    let headers: HTTPFields
    let html: String

    var location: String? { headers[.location] }

    /// The value of the page's first `_csrf` field.
    var csrfToken: String? { firstMatch(#"name="_csrf" value="([^"]+)""#) }

    /// The first capture group of `pattern` in the page.
    func firstMatch(_ pattern: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: html, range: NSRange(html.startIndex..., in: html)),
            match.numberOfRanges > 1, let range = Range(match.range(at: 1), in: html)
        else { return nil }
        return String(html[range])
    }

    func contains(_ text: String) -> Bool { html.contains(text) }
}

extension WebPage {
    /// Every first capture group of `pattern`, in page order.
    func allMatches(_ pattern: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap { match in
            Range(match.range(at: 1), in: html).map { String(html[$0]) }
        }
    }

    func count(_ text: String) -> Int { html.components(separatedBy: text).count - 1 }
}
