#if canImport(Security)
    public import Foundation
    import Security

    /// The session in the Keychain (Apple platforms), as one generic-password item.
    ///
    /// ```swift
    /// let manager = AuthenticationManager(store: KeychainSessionStore())
    /// ```
    public struct KeychainSessionStore: SessionStore {
        /// The Keychain service the item is stored under, e.g. `"ch.concierge.session"`.
        public let service: String

        /// `KeychainSessionStore(service: "com.example.rides.session")` keeps apps apart.
        public init(service: String = "ch.concierge.session") {
            self.service = service
        }

        private var query: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: "session",
            ]
        }

        /// The stored session, or nil: `if let saved = store.load() { … }`.
        public func load() -> SavedSession? {
            var item: CFTypeRef?
            var search = query
            search[kSecReturnData as String] = true
            guard SecItemCopyMatching(search as CFDictionary, &item) == errSecSuccess, let data = item as? Data else {
                return nil
            }
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try? decoder.decode(SavedSession.self, from: data)
        }

        /// Replaces the stored session: `try store.save(session)`.
        public func save(_ session: SavedSession) throws {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            let data = try encoder.encode(session)
            SecItemDelete(query as CFDictionary)
            var item = query
            item[kSecValueData as String] = data
            item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            let status = SecItemAdd(item as CFDictionary, nil)
            guard status == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
        }

        /// Deletes the stored session: `store.clear()`.
        public func clear() {
            SecItemDelete(query as CFDictionary)
        }
    }
#endif
