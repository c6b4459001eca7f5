public import ConciergeCore
import Foundation
import JWTKit

/// An issuer's signing keys: fetched over HTTPS and kept for as long as the response's
/// `Cache-Control: max-age` allows, or read from a file once. An unknown `kid` refetches at
/// most once a minute, so a token with a made-up `kid` cannot make us fetch on every request.
public actor JWKSSource {
    public enum Location: Sendable, Equatable {
        case url(String)
        case file(String)
    }

    public let location: Location
    private let transport: any ProviderHTTPTransport
    private let clock: any TimeSource
    private var cached: (keys: JWTKeyCollection, kids: Set<String>, expiresAt: Date)?
    private var lastFetch: Date?

    /// Without `max-age` (Apple sends none), keys are kept this long; Clerk's SDK uses 5 minutes.
    static let defaultLifetime: TimeInterval = 300
    static let maximumLifetime: TimeInterval = 86_400
    static let minimumRefetchInterval: TimeInterval = 60

    public init(location: Location, transport: any ProviderHTTPTransport, clock: any TimeSource) {
        self.location = location
        self.transport = transport
        self.clock = clock
    }

    /// Keys that include `kid` when the issuer publishes it; refetches once when it is missing.
    func keys(for kid: String?) async throws -> JWTKeyCollection {
        let now = clock.now
        if let cached, now < cached.expiresAt, kid.map(cached.kids.contains) ?? true { return cached.keys }
        if let cached, now < cached.expiresAt, let lastFetch,
            now.timeIntervalSince(lastFetch) < Self.minimumRefetchInterval
        {
            return cached.keys
        }
        return try await load(now: now)
    }

    private func load(now: Date) async throws -> JWTKeyCollection {
        lastFetch = now
        let (json, lifetime) = try await fetch()
        let jwks: JWKS
        do {
            jwks = try JSONDecoder().decode(JWKS.self, from: json)
        } catch {
            throw ConciergeError.identityProviderUnavailable("its key set is not a JWKS document")
        }
        let keys = JWTKeyCollection()
        // Keys of types we cannot use (or malformed ones) are skipped, not fatal: an issuer may
        // publish more than we need while rotating.
        for key in jwks.keys { _ = try? await keys.add(jwk: key) }
        let kids = Set(jwks.keys.compactMap { $0.keyIdentifier?.string })
        cached = (keys, kids, now.addingTimeInterval(lifetime))
        return keys
    }

    private func fetch() async throws -> (Data, TimeInterval) {
        switch location {
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConciergeError.identityProviderUnavailable("its key file \(path) cannot be read")
            }
            return (data, .infinity)
        case .url(let url):
            let response: ProviderHTTPResponse
            do {
                response = try await transport.send(
                    ProviderHTTPRequest(method: "GET", url: url, headers: [("Accept", "application/json")]),
                    timeout: .seconds(5))
            } catch {
                throw ConciergeError.identityProviderUnavailable("its keys could not be fetched")
            }
            guard response.status == 200 else {
                throw ConciergeError.identityProviderUnavailable("its keys answered \(response.status)")
            }
            return (response.body, Self.lifetime(cacheControl: response.header("Cache-Control")))
        }
    }

    /// `max-age` within bounds; `no-store`/`no-cache` count as a minute (never per request).
    static func lifetime(cacheControl: String?) -> TimeInterval {
        guard let cacheControl else { return defaultLifetime }
        let directives = cacheControl.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if directives.contains("no-store") || directives.contains("no-cache") { return minimumRefetchInterval }
        for directive in directives where directive.hasPrefix("max-age=") {
            if let seconds = TimeInterval(directive.dropFirst("max-age=".count)) {
                return min(max(seconds, minimumRefetchInterval), maximumLifetime)
            }
        }
        return defaultLifetime
    }
}

extension ConciergeError {
    static func identityProviderUnavailable(_ reason: String) -> ConciergeError {
        ConciergeError(
            .unavailable(retryAfterSeconds: 60), code: "identity_provider_unavailable",
            message: "Sign-in with this provider is not possible right now: \(reason). Try again in a minute.")
    }
}
