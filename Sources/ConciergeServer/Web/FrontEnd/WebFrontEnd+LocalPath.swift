import Foundation

extension WebFrontEnd {
    /// Where to go after a form (`next=`), for every page that takes one: nil when none was given
    /// (the page's own default applies), the value when it is a path on this site, and `/` for
    /// anything else. Browsers drop tabs and newlines and read `\` as `/` before they resolve a
    /// `Location` (WHATWG URL), so `/<TAB>/evil.example` would leave the site: a value passes only
    /// when it is printable ASCII without `\`, starts with one `/`, and parses as a URL with no
    /// scheme, host or user.
    static func localPath(_ raw: String?) -> String? {
        guard let raw, !raw.isEmpty else { return nil }
        return isLocalPath(raw) ? raw : "/"
    }

    private static func isLocalPath(_ raw: String) -> Bool {
        guard raw.utf8.count < 512, raw.hasPrefix("/"), !raw.hasPrefix("//") else { return false }
        // Printable ASCII only: no control characters (tab, newline, NUL, DEL), no space, no
        // `\`, nothing a browser might fold into a `/` or strip.
        guard raw.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\\") }) else { return false }
        guard let url = URL(string: raw), url.scheme == nil, url.host == nil, url.user == nil else { return false }
        return true
    }
}
