public import Foundation

#if canImport(Security)
    import Security
#endif

/// A stays sign-in as kept between launches: who, the 15-minute access token and the refresh
/// token that renews it.
public struct StaysTokens: Codable, Sendable, Equatable {
    public var username: String
    public var guestId: Int64
    public var token: String
    public var refreshToken: String

    public init(username: String, guestId: Int64, token: String, refreshToken: String) {
        self.username = username
        self.guestId = guestId
        self.token = token
        self.refreshToken = refreshToken
    }
}

/// Where stays tokens are kept: the Keychain on Apple platforms (`KeychainStaysTokenStore`),
/// a 0600 file elsewhere (`FileStaysTokenStore`), memory in tests.
///
/// ```swift
/// let network = StaysNetwork(baseURL: URL(string: "https://hotel.example.com/stays")!, tokens: FileStaysTokenStore())
/// ```
public protocol StaysTokenStore: Sendable {
    func load() -> StaysTokens?
    func save(_ tokens: StaysTokens) throws
    func clear()
}

/// Forgets the tokens when the process ends; for tests and previews.
public final class InMemoryStaysTokenStore: StaysTokenStore, @unchecked Sendable {
    private let lock = NSLock()
    private var tokens: StaysTokens?

    public init(_ tokens: StaysTokens? = nil) { self.tokens = tokens }
    public func load() -> StaysTokens? { lock.withLock { tokens } }
    public func save(_ tokens: StaysTokens) throws { lock.withLock { self.tokens = tokens } }
    public func clear() { lock.withLock { tokens = nil } }
}

/// The tokens in a JSON file readable by its owner only, by default
/// `~/.config/concierge/stays-tokens.json`.
public struct FileStaysTokenStore: StaysTokenStore {
    public let url: URL

    public init(url: URL? = nil) {
        self.url =
            url
            ?? FileSessionStore.defaultURL.deletingLastPathComponent().appendingPathComponent("stays-tokens.json")
    }

    public func load() -> StaysTokens? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(StaysTokens.self, from: data)
    }

    public func save(_ tokens: StaysTokens) throws {
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        // Created 0600 before the tokens are written, so they are never readable by others.
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        try JSONEncoder().encode(tokens).write(to: url)
    }

    public func clear() { try? FileManager.default.removeItem(at: url) }
}

#if canImport(Security)
    /// The tokens in the Keychain, as one generic-password item.
    public struct KeychainStaysTokenStore: StaysTokenStore {
        public let service: String

        public init(service: String = "ch.concierge.stays") {
            self.service = service
        }

        private var query: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: "tokens",
            ]
        }

        public func load() -> StaysTokens? {
            var item: CFTypeRef?
            var search = query
            search[kSecReturnData as String] = true
            guard SecItemCopyMatching(search as CFDictionary, &item) == errSecSuccess, let data = item as? Data else {
                return nil
            }
            return try? JSONDecoder().decode(StaysTokens.self, from: data)
        }

        public func save(_ tokens: StaysTokens) throws {
            SecItemDelete(query as CFDictionary)
            var item = query
            item[kSecValueData as String] = try JSONEncoder().encode(tokens)
            item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            let status = SecItemAdd(item as CFDictionary, nil)
            guard status == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
        }

        public func clear() { SecItemDelete(query as CFDictionary) }
    }
#endif
