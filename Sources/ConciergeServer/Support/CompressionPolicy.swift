/// Which answers go out gzip-compressed (RFC 9110 section 8.4 and 12.5.3), as plain rules over
/// header values: `ResponseCompressionMiddleware` applies them.
enum CompressionPolicy {
    /// Text that shrinks well: pages, styles, scripts, pictures in SVG, JSON, the OpenAPI
    /// document and plain text (/metrics). Server-Sent Events (`text/event-stream`) are not here:
    /// a compressor holds back what it has not yet packed, and an event must not wait.
    static func isCompressible(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        switch type {
        case "text/html", "text/css", "text/javascript", "application/javascript", "image/svg+xml",
            "application/json", "application/yaml", "text/yaml", "text/plain":
            return true
        case let type?: return type.hasSuffix("+json")
        case nil: return false
        }
    }

    /// Whether `Accept-Encoding` accepts gzip: `gzip` (or `x-gzip`) with a q-value above 0, or
    /// else `*` with one. No header, or only `identity`, means the answer goes out as it is.
    static func acceptsGzip(_ acceptEncoding: String?) -> Bool {
        var gzip: Double?
        var any: Double?
        for item in (acceptEncoding ?? "").split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first, !coding.isEmpty else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.map { Double($0.dropFirst(2)) ?? 0 } ?? 1
            switch coding {
            case "gzip", "x-gzip": gzip = max(gzip ?? 0, quality)
            case "*": any = quality
            default: continue
            }
        }
        return (gzip ?? any ?? 0) > 0
    }

    /// A compressed answer is another representation than the plain one, so it must not carry
    /// the plain one's strong tag: `"abc"` becomes `W/"abc"` (as nginx does). A weak tag stays.
    static func weakened(_ etag: String) -> String {
        etag.hasPrefix("W/") ? etag : "W/" + etag
    }

    /// `If-None-Match` names `etag` by weak comparison (RFC 9110 section 13.1.2: `W/"abc"` and
    /// `"abc"` match), or is `*`.
    static func ifNoneMatch(_ header: String?, matches etag: String) -> Bool {
        let wanted = opaque(etag)
        return (header ?? "").split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || opaque(tag) == wanted
        }
    }

    /// Whether `If-None-Match` lists `etag` in its weak form: the client holds the compressed copy.
    static func ifNoneMatch(_ header: String?, listsWeak etag: String) -> Bool {
        let weak = weakened(etag)
        return (header ?? "").split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == weak }
    }

    private static func opaque(_ tag: some StringProtocol) -> Substring {
        let text = Substring(tag)
        return text.hasPrefix("W/") ? text.dropFirst(2) : text
    }
}
