public import ConciergeModels
public import Foundation

/// Keeps the signed-in customer and their session token, and forgets them on logout or when the
/// session's 7 days are over.
///
/// ```swift
/// AuthenticationManager.shared.saveAuthentication(customer: customer, sessionToken: token)
/// if AuthenticationManager.shared.isAuthenticated { … }
/// AuthenticationManager.shared.logout()
/// ```
public final class AuthenticationManager: @unchecked Sendable {
    /// Uses the platform's default store: the Keychain on Apple platforms, a 0600 file elsewhere.
    public static let shared = AuthenticationManager(store: AuthenticationManager.defaultStore())

    /// How long a session lasts when the server did not say.
    public static let sessionLifetime: TimeInterval = 7 * 24 * 3600

    private let store: any SessionStore
    private let now: @Sendable () -> Date

    /// `AuthenticationManager(store: InMemorySessionStore())` for tests; `now` moves time in them.
    public init(store: any SessionStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.now = now
    }

    /// Saves a sign-in. `expiresAt` defaults to 7 days from now.
    public func saveAuthentication(customer: AuthenticatedCustomer, sessionToken: String, expiresAt: Date? = nil) {
        try? store.save(
            SavedSession(
                customer: customer, sessionToken: sessionToken,
                expiresAt: expiresAt ?? now().addingTimeInterval(Self.sessionLifetime)))
    }

    /// The saved session if it has not expired; an expired one counts as signed out.
    public var session: SavedSession? {
        guard let session = store.load(), session.expiresAt > now() else { return nil }
        return session
    }

    /// True while a saved, unexpired session exists: `if manager.isAuthenticated { showHome() }`.
    public var isAuthenticated: Bool { session != nil }
    /// The signed-in customer: `manager.currentCustomer?.phone`.
    public var currentCustomer: AuthenticatedCustomer? { session?.customer }
    /// The bearer token for authenticated calls: `BookingService.shared.bookings(sessionToken: manager.sessionToken!)`.
    public var sessionToken: String? { session?.sessionToken }
    /// When the session ends: `manager.sessionExpiresAt`.
    public var sessionExpiresAt: Date? { session?.expiresAt }

    /// Forgets the session on this device. `VeramoAuthService.logout()` also revokes it on the server.
    public func logout() {
        store.clear()
    }

    static func defaultStore() -> any SessionStore {
        #if canImport(Security)
            KeychainSessionStore()
        #else
            FileSessionStore()
        #endif
    }
}
