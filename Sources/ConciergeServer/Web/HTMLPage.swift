import ConciergeCore
import Hummingbird
import NIOCore

/// Minimal server-rendered pages: escaped text, one stylesheet, no scripts.
enum HTMLPage {
    /// The one escaping of pages and pictures (`MarkupEscaping`), under the name pages call.
    static func escape(_ text: String) -> String { MarkupEscaping.escaped(text) }

    private static let style = """
        body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1d1d1f}
        h1{font-size:1.5rem} dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem}
        dt{color:#6e6e73} button{font-size:1rem;padding:.6rem 1.2rem;margin:.3rem .3rem 0 0;border-radius:.5rem;border:1px solid #ccc;cursor:pointer}
        .pay{background:#0a7d32;color:#fff;border-color:#0a7d32} .note{color:#6e6e73;font-size:.9rem}
        """

    /// The page's one inline stylesheet is allowed by its hash, so the policy needs no
    /// `'unsafe-inline'`; nothing else may load or run, forms post only to this server, and no
    /// other site may frame the page (security review finding 22).
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'sha256-\(ContentDigest.sha256Base64(style))'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// `body` must already be escaped HTML; it is the page's main landmark, so a screen reader's
    /// "go to main" finds it (accessibility review: the sandbox checkout had none). `language` is
    /// the page's language tag.
    static func response(
        title: String, body: String, status: HTTPResponse.Status = .ok, language: String = "en"
    ) -> Response {
        let html = """
            <!doctype html>
            <html lang="\(escape(language))"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <style>\(style)</style></head><body><main>
            \(body)
            </main></body></html>
            """
        return Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: contentSecurityPolicy,
            ],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
