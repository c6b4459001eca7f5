import Foundation

/// Why an `SMTP_URL` could not be used. The text names the problem and how to fix it, and never
/// repeats the password.
public struct SMTPURLError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { "SMTP_URL: \(message)" }
}

/// The `SMTP_URL` setting, for example
/// `smtp://user:password@smtp.example.com:587?from=noreply@example.com`.
///
/// - `smtp://` connects in plain text and upgrades with STARTTLS (RFC 3207). The TLS rule:
///   STARTTLS is used whenever the server offers it, and it is REQUIRED (the send fails as
///   misconfigured when the server does not offer it) unless the URL says `?starttls=optional`
///   or the host is a loopback address (`localhost`, `127.0.0.0/8`, `::1`), where a local capture
///   server such as Mailpit usually has no TLS. `?starttls=required` forces the requirement even
///   for loopback hosts. Default port 587.
/// - `smtps://` speaks TLS from the first byte (RFC 8314). Default port 465.
/// - User and password are optional, percent-encoded like any URL userinfo. Credentials are only
///   ever sent over TLS or to a loopback host.
/// - `from` (required) is the envelope sender and `From:` header address.
public struct SMTPURL: Sendable, Equatable {
    public enum Security: Sendable, Equatable {
        /// `smtps://`: TLS from the first byte.
        case implicitTLS
        /// `smtp://`: STARTTLS when offered; when `required`, a server without it is refused.
        case startTLS(required: Bool)
    }

    public let security: Security
    public let host: String
    public let port: Int
    public let username: String?
    public let password: String?
    public let from: String

    public init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw SMTPURLError("is empty; expected smtp://user:password@host:587?from=noreply@example.com")
        }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased() else {
            throw SMTPURLError(
                "is not a valid URL; expected smtp://user:password@host:587?from=noreply@example.com (percent-encode special characters in the user and password)"
            )
        }
        let implicitTLS: Bool
        switch scheme {
        case "smtp": implicitTLS = false
        case "smtps": implicitTLS = true
        default: throw SMTPURLError("scheme must be smtp:// (STARTTLS) or smtps:// (implicit TLS), not \(scheme)://")
        }
        var host = components.host ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw SMTPURLError("has no host; expected smtp://host:587?from=…") }
        if let port = components.port {
            guard (1...65535).contains(port) else { throw SMTPURLError("port \(port) is out of range 1-65535") }
            self.port = port
        } else {
            self.port = implicitTLS ? 465 : 587
        }
        self.host = host
        self.username = components.user.flatMap { $0.isEmpty ? nil : $0 }
        self.password = components.password
        if password != nil && username == nil {
            throw SMTPURLError("has a password but no user name; use smtp://user:password@host")
        }
        if !components.path.isEmpty && components.path != "/" {
            throw SMTPURLError(
                "must not have a path (found \(components.path)); put options in the query, e.g. ?from=…")
        }

        var from: String?
        var startTLSOption: String?
        for item in components.queryItems ?? [] {
            switch item.name.lowercased() {
            case "from":
                guard from == nil else { throw SMTPURLError("has more than one from= option") }
                from = item.value ?? ""
            case "starttls":
                guard startTLSOption == nil else { throw SMTPURLError("has more than one starttls= option") }
                startTLSOption = (item.value ?? "").lowercased()
            default:
                throw SMTPURLError("unknown option \(item.name)=; supported options are from= and starttls=")
            }
        }
        guard let from, !from.isEmpty else {
            throw SMTPURLError("needs the sender address as ?from=noreply@example.com")
        }
        guard EmailErrors.isPlausibleAddress(from) else {
            throw SMTPURLError("from=\(from) is not a plain email address like noreply@example.com")
        }
        self.from = from

        if implicitTLS {
            if startTLSOption != nil {
                throw SMTPURLError("starttls= only applies to smtp://; smtps:// always uses TLS")
            }
            self.security = .implicitTLS
        } else {
            switch startTLSOption {
            case nil: self.security = .startTLS(required: !Self.isLoopback(host))
            case "required": self.security = .startTLS(required: true)
            case "optional": self.security = .startTLS(required: false)
            case let other?:
                throw SMTPURLError("starttls=\(other) is not supported; use starttls=required or starttls=optional")
            }
        }
    }

    /// Whether the connection never leaves this machine.
    public var isLoopback: Bool { Self.isLoopback(host) }

    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host == "0:0:0:0:0:0:0:1" {
            return true
        }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
