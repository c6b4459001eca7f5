import Foundation

/// A parsed `DATABASE_URL`: `postgres://user[:password]@host[:port]/database[?sslmode=require]`.
public struct PostgresURL: Sendable, Equatable {
    public let host: String
    public let port: Int
    public let username: String
    public let password: String?
    public let database: String
    public let requireTLS: Bool

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
        guard ["disable", "require", "prefer", "allow"].contains(sslmode) else {
            throw PostgresURLError("has an sslmode we do not support ('\(sslmode)'; use disable or require)")
        }
        self.host = host
        self.port = components.port ?? 5432
        self.username = user.removingPercentEncoding ?? user
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 }
        self.database = database
        self.requireTLS = sslmode == "require"
    }
}

public struct PostgresURLError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
