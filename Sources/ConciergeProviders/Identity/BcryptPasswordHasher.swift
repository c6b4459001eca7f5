public import ConciergeCore
import HummingbirdBcrypt
import NIOPosix

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
    public let decoyHash: String

    /// - Parameter random: draws the decoy's password; bcrypt's salts come from the library's
    ///   own CSPRNG (hummingbird-auth takes no source).
    public init(cost: UInt8 = BcryptPasswordHasher.defaultCost, random: any RandomSource = SystemRandomSource()) {
        self.cost = cost
        // Made once, at start: an unknown login is checked against it so it costs what a real
        // one does. Its password is random and thrown away.
        self.decoyHash = Bcrypt.hash(random.token(byteCount: 24), cost: cost)
    }

    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    public func verify(_ password: String, against hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}
