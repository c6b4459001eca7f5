import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// A sign-in service over a real database on one engine, with a clock that only moves when told.
struct SignInFixture {
    let database: any SQLDatabase
    let clock = ManualTimeSource()
    let sms = RecordingSMSSender()
    let service: SignInService
    let store: SQLIdentityStore

    static let phone = "+41791234567"
    static let ip = "203.0.113.7"

    init(engine: TestEngine, policy: SignInPolicy = SignInPolicy(), codes: CodeAuthority? = nil) async throws {
        database = try await engine.makeDatabase()
        store = SQLIdentityStore(database: database)
        service = SignInService(
            store: store, codes: codes ?? .local(sms), hasher: SecretHasher(secret: "test-secret"), policy: policy,
            clock: clock)
    }

    /// Sends a code and returns it as the SMS carried it.
    func sendCode(to phone: String = Self.phone, ip: String = Self.ip) async throws -> String {
        _ = try await service.sendCode(to: phone, clientIP: ip)
        return try #require(sms.lastCode(to: try PhoneNumber(normalizing: phone).e164))
    }

    func signIn(phone: String = Self.phone) async throws -> SignInService.SignedIn {
        let code = try await sendCode(to: phone)
        return try await service.verifyCode(phone: phone, code: code, clientIP: Self.ip)
    }

    /// A six-digit code that is not `code`.
    static func wrong(_ code: String) -> String {
        code == "000000" ? "111111" : "000000"
    }

    func close() async throws { try await database.close() }
}

/// The machine code of the `ConciergeError` `body` throws.
func errorCode(_ body: () async throws -> some Any) async -> String? {
    do {
        _ = try await body()
        return nil
    } catch let error as ConciergeError {
        return error.code
    } catch {
        return "unexpected: \(error)"
    }
}

/// The `ConciergeError` `body` throws, failing the test when it throws none.
func conciergeError(_ body: () async throws -> some Any) async throws -> ConciergeError {
    do {
        _ = try await body()
    } catch let error as ConciergeError {
        return error
    }
    Issue.record("expected a ConciergeError")
    throw CancellationError()
}
