#if canImport(Security)
    public import Foundation
    import Security

    /// The session in the Keychain (Apple platforms), as one generic-password item.
    ///
    /// ```swift
    /// let manager = AuthenticationManager(store: KeychainSessionStore())
    /// ```
    public struct KeychainSessionStore: SessionStore {
        public let service: String

        public init(service: String = "ch.concierge.session") {
            self.service = service
        }

        private var query: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: "session",
            ]
        }

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

        public func clear() {
            SecItemDelete(query as CFDictionary)
        }
    }
#endif
