public import Foundation

#if canImport(Security)
    import Security
#endif

/// Where the events token is kept between launches: the Keychain on Apple platforms
/// (`KeychainEventsTokenStore`), a 0600 file elsewhere, memory in tests.
///
/// ```swift
/// let client = EventsClient(baseURL: url, tokens: FileEventsTokenStore())
/// ```
public protocol EventsTokenStore: Sendable {
    func load() -> String?
    func save(_ token: String) throws
    func clear()
}

/// Forgets the token when the process ends.
public final class InMemoryEventsTokenStore: EventsTokenStore, @unchecked Sendable {
    private let lock = NSLock()
    private var token: String?

    public init(_ token: String? = nil) { self.token = token }
    public func load() -> String? { lock.withLock { token } }
    public func save(_ token: String) throws { lock.withLock { self.token = token } }
    public func clear() { lock.withLock { token = nil } }
}

/// The token in a file readable by its owner only, by default `~/.config/concierge/events-token`.
public struct FileEventsTokenStore: EventsTokenStore {
    public let url: URL

    public init(url: URL? = nil) {
        self.url =
            url
            ?? FileSessionStore.defaultURL.deletingLastPathComponent().appendingPathComponent("events-token")
    }

    public func load() -> String? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty ? nil : token
    }

    public func save(_ token: String) throws {
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        // Created 0600 before the token is written, so it is never readable by others.
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        try Data(token.utf8).write(to: url)
    }

    public func clear() { try? FileManager.default.removeItem(at: url) }
}

#if canImport(Security)
    /// The token in the Keychain (this device only, after first unlock).
    public struct KeychainEventsTokenStore: EventsTokenStore {
        public let service: String

        public init(service: String = "ch.concierge.events") { self.service = service }

        private var query: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: "token",
            ]
        }

        public func load() -> String? {
            var item: CFTypeRef?
            var request = query
            request[kSecReturnData as String] = true
            guard SecItemCopyMatching(request as CFDictionary, &item) == errSecSuccess, let data = item as? Data else {
                return nil
            }
            return String(decoding: data, as: UTF8.self)
        }

        public func save(_ token: String) throws {
            clear()
            var item = query
            item[kSecValueData as String] = Data(token.utf8)
            item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            let status = SecItemAdd(item as CFDictionary, nil)
            guard status == errSecSuccess else { throw EventsAPIError.server("Keychain error \(status)") }
        }

        public func clear() { SecItemDelete(query as CFDictionary) }
    }
#endif
