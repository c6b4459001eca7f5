import Foundation

/// A parsed `DATABASE_URL`: `postgres://user[:password]@host[:port]/database[?sslmode=…]`.
public struct PostgresURL: Sendable, Equatable {
    /// `sslmode` as libpq names it. `prefer` and `allow` are refused: they fall back to plain
    /// text without saying so, and would send the password in clear over a remote network.
    public enum TLSMode: String, Sendable, Equatable, CaseIterable {
        /// No TLS (loopback or a private network you trust).
        case disable
        /// TLS, the server's certificate not checked (protects against listening, not against
        /// a server in the middle) — what libpq does.
        case require
        /// TLS, the certificate checked against the system's trusted roots, not the host name.
        case verifyCA = "verify-ca"
        /// TLS, the certificate and the host name checked.
        case verifyFull = "verify-full"
    }

    public let host: String
    public let port: Int
    public let username: String
    public let password: String?
    public let database: String
    public let tls: TLSMode

    /// Throws a message that says what is wrong with the URL, never echoing its password.
    public init(_ text: String) throws(PostgresURLError) {
        guard let components = URLComponents(string: text),
            let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme)
        else { throw PostgresURLError("must look like postgres://user:password@host:5432/database") }
        guard let host = components.host, !host.isEmpty else { throw PostgresURLError("names no host") }
        guard let user = components.user, !user.isEmpty else { throw PostgresURLError("names no user") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else { throw PostgresURLError("names no database (the path after the host)") }
        let sslmode = components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "disable"
        guard let tls = TLSMode(rawValue: sslmode) else {
            throw PostgresURLError(
                "has sslmode '\(sslmode)'; use disable, require, verify-ca or verify-full (prefer and allow are "
                    + "refused: they quietly fall back to no encryption)")
        }
        self.host = host
        self.port = components.port ?? 5432
        self.username = user.removingPercentEncoding ?? user
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 }
        self.database = database
        self.tls = tls
    }
}

public struct PostgresURLError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
