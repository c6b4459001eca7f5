public import ConciergeModels
public import Foundation

/// A saved sign-in: who, the bearer token, and until when it is valid.
public struct SavedSession: Codable, Sendable, Equatable {
    /// Who signed in: `saved.customer.phone`.
    public var customer: AuthenticatedCustomer
    /// The bearer token: `saved.sessionToken`.
    public var sessionToken: String
    /// After this the session counts as signed out: `saved.expiresAt > Date()`.
    public var expiresAt: Date

    /// `SavedSession(customer: customer, sessionToken: token, expiresAt: expiry)`.
    public init(customer: AuthenticatedCustomer, sessionToken: String, expiresAt: Date) {
        self.customer = customer
        self.sessionToken = sessionToken
        self.expiresAt = expiresAt
    }
}

/// Where a session is kept between launches: the Keychain on Apple platforms, a 0600 file
/// elsewhere, memory in tests.
///
/// ```swift
/// let store: any SessionStore = InMemorySessionStore()
/// let manager = AuthenticationManager(store: store)
/// ```
public protocol SessionStore: Sendable {
    func load() -> SavedSession?
    func save(_ session: SavedSession) throws
    func clear()
}

/// A session store that forgets everything when the process ends; for tests and previews.
public final class InMemorySessionStore: SessionStore, @unchecked Sendable {
    private let lock = NSLock()
    private var session: SavedSession?

    /// `InMemorySessionStore(saved)` starts signed in; `InMemorySessionStore()` signed out.
    public init(_ session: SavedSession? = nil) { self.session = session }
    /// The session kept in memory: `store.load()`.
    public func load() -> SavedSession? { lock.withLock { session } }
    /// Keeps `session` in memory: `try store.save(session)`.
    public func save(_ session: SavedSession) throws { lock.withLock { self.session = session } }
    /// Forgets the session: `store.clear()`.
    public func clear() { lock.withLock { session = nil } }
}

/// A session store in a JSON file readable by its owner only (0600), by default
/// `$XDG_CONFIG_HOME/concierge/session.json` or `~/.config/concierge/session.json`.
///
/// ```swift
/// let store = FileSessionStore()
/// ```
public struct FileSessionStore: SessionStore {
    /// The file, e.g. `~/.config/concierge/session.json`.
    public let url: URL

    /// `FileSessionStore(url: folder.appendingPathComponent("session.json"))` for another place.
    public init(url: URL = FileSessionStore.defaultURL) {
        self.url = url
    }

    /// `$XDG_CONFIG_HOME/concierge/session.json`, or `~/.config/concierge/session.json`.
    public static var defaultURL: URL {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        return base.appendingPathComponent("concierge").appendingPathComponent("session.json")
    }

    /// The saved session, or nil when there is none or it cannot be read: `store.load()`.
    public func load() -> SavedSession? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(SavedSession.self, from: data)
    }

    /// Writes the session with 0600 permissions: `try store.save(session)`.
    public func save(_ session: SavedSession) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(session)
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Created with 0600 before the token is written, so it is never readable by others.
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        try data.write(to: url)
    }

    /// Deletes the file: `store.clear()`.
    public func clear() {
        try? FileManager.default.removeItem(at: url)
    }
}
