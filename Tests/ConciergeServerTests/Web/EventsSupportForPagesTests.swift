import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore

/// A browser for the events page tests that can also carry a session opened through the events
/// API (`POST /events/api/auth/signup`): its token is a platform session, which the pages read
/// from the `concierge_session` cookie like a web sign-in's. Like `WebBrowser` otherwise: keeps
/// cookies, posts forms with the last page's CSRF token, follows redirects (absolute ones too,
/// as the payment's return address is).
struct EventsVisitor {
    let client: any TestClientProtocol
    var cookies: [String: String] = [:]
    private(set) var lastPage: WebPage?

    init(client: any TestClientProtocol, sessionToken: String? = nil) {
        self.client = client
        if let sessionToken { cookies["concierge_session"] = sessionToken }
    }

    mutating func get(_ path: String, follow: Bool = true) async throws -> WebPage {
        let page = try await send(.get, path, body: nil)
        return follow ? try await following(page) : page
    }

    mutating func post(_ path: String, form: [(String, String)], follow: Bool = true) async throws -> WebPage {
        var fields = form
        if let token = lastPage?.csrfToken { fields.append(("_csrf", token)) }
        let body = fields.map { "\(WebBrowser.formEscaped($0.0))=\(WebBrowser.formEscaped($0.1))" }
            .joined(separator: "&")
        let page = try await send(.post, path, body: body)
        return follow ? try await following(page) : page
    }

    private mutating func following(_ first: WebPage) async throws -> WebPage {
        var page = first
        var hops = 0
        while let location = page.location, [301, 302, 303, 307].contains(page.status), hops < 8 {
            page = try await send(.get, Self.local(location), body: nil)
            hops += 1
        }
        return page
    }

    /// The path and query of an absolute address of this server.
    static func local(_ location: String) -> String {
        guard location.hasPrefix("http"), let url = URLComponents(string: location) else { return location }
        return url.percentEncodedPath + (url.percentEncodedQuery.map { "?\($0)" } ?? "")
    }

    private mutating func send(_ method: HTTPRequest.Method, _ path: String, body: String?) async throws -> WebPage {
        var headers: HTTPFields = [:]
        if body != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        if !cookies.isEmpty {
            headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")
        }
        let response = try await client.execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        for value in response.headers[values: .setCookie] {
            let pair = value.split(separator: ";").first.map(String.init) ?? ""
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            cookies[String(parts[0])] = value.contains("Max-Age=0") || parts[1].isEmpty ? nil : String(parts[1])
        }
        let page = WebPage(
            status: Int(response.status.code), headers: response.headers, html: String(buffer: response.body))
        if page.location == nil, page.csrfToken != nil { lastPage = page }
        return page
    }
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
