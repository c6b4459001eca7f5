public import ConciergeCore
import HummingbirdBcrypt
import NIOPosix
import Synchronization

/// bcrypt from hummingbird-auth, run on NIO's blocking thread pool (`NIOThreadPool.singleton`).
///
/// One hash holds a thread for tens of milliseconds by design. On the event loop it would stall
/// every connection of that loop; on Swift's cooperative pool (two threads on this machine) two
/// sign-ins would stall every other task of the server. The thread pool exists for exactly this
/// kind of blocking work and leaves both alone.
///
/// The default cost, 11, took 155–159 ms per hash on this project's 2-core machine (median of
/// three in `BcryptPasswordHasherTests`, measured twice while other builds shared the cores).
/// Each step of cost doubles the work, so 10 would sit near the 50 ms floor on an idle or faster
/// machine; 11 is the smallest cost that stays above it with margin. `CONCIERGE_BCRYPT_COST`
/// changes it.
public struct BcryptPasswordHasher: PasswordHasher {
    public static let defaultCost: UInt8 = 11
    public static let allowedCosts: ClosedRange<Int> = 4...31

    private let cost: UInt8
    private let decoy: Decoy

    /// - Parameter random: draws the decoy's password; bcrypt's salts come from the library's
    ///   own CSPRNG (hummingbird-auth takes no source).
    public init(cost: UInt8 = BcryptPasswordHasher.defaultCost, random: any RandomSource = SystemRandomSource()) {
        self.cost = cost
        self.decoy = Decoy(password: random.token(byteCount: 24))
    }

    /// Hashed on the thread pool at the first unknown login, then kept. It used to be hashed in
    /// `init`, on whichever thread built the server: one bcrypt per start on the cooperative pool,
    /// and the test suite, which builds many servers at once, stalled for seconds on them.
    public func decoyHash() async throws -> String {
        if let hash = decoy.hash { return hash }
        let hash = try await self.hash(decoy.password)
        decoy.keep(hash)
        return decoy.hash ?? hash
    }

    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    public func verify(_ password: String, against hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}

/// The decoy's password and, once made, its hash (two racing first logins may both hash it;
/// the first kept wins).
private final class Decoy: Sendable {
    let password: String
    private let kept = Mutex<String?>(nil)

    init(password: String) { self.password = password }

    var hash: String? { kept.withLock { $0 } }

    func keep(_ hash: String) {
        kept.withLock { if $0 == nil { $0 = hash } }
    }
}
