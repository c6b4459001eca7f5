import ConciergeCore
import ConciergeProviders

extension ServerConfiguration {
    /// Sign-in throttling and mail links as configured: the same for every vertical's accounts.
    var accountPolicy: AccountPolicy {
        var policy = AccountPolicy()
        policy.signInsPerAccount = accounts.signInsPerAccount
        policy.signInsPerNetwork = accounts.signInsPerNetwork
        policy.hashedWritesPerNetwork = accounts.hashedWritesPerNetwork
        policy.hashedWritesPerHour = accounts.hashedWritesPerHour
        policy.publicURL = publicURL
        return policy
    }
}

extension AccountsConfiguration {
    /// bcrypt behind the one `HashingGate` of this instance: every vertical's hashing shares it.
    /// One slot is kept for sign-in checks (none when there is one slot), so a flood of sign-ups
    /// never makes a sign-in wait for a slot.
    func passwordHasher(random: any RandomSource) -> HashingGate {
        HashingGate(
            BcryptPasswordHasher(cost: UInt8(bcryptCost), random: random), slots: hashConcurrency,
            queueLimit: hashQueue, slotsKeptForChecks: 1)
    }
}

extension PlatformServices {
    /// An `AccountService` on the platform's sessions, bcrypt, SMS-code proof, keyed hashing,
    /// time and policy. A vertical chooses only its store (stays writes a guest profile in the
    /// account's own transaction) and the ID-token issuers it trusts.
    func accountService(store: any AccountStore, idTokens: any IDTokenVerifier) -> AccountService {
        let signIn = self.signIn
        return AccountService(
            store: store, sessions: sessions, passwords: passwords, idTokens: idTokens,
            phoneProof: { phone, code, ip in try await signIn.proveCode(phone: phone, code: code, clientIP: ip) },
            hasher: hasher, random: random, clock: clock, policy: configuration.accountPolicy)
    }
}
