import ConciergeCore
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Password accounts over HTTP: sign-up, sign-in with one answer for both mistakes, the
/// throttles (429 with Retry-After), email verification and password reset through the outbox.
@Suite struct AccountPasswordHTTPTests {
    @Test(arguments: TestEngine.all)
    func signUpThenSignInWithEmailOrUsername(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        try await app.run { client in
            let created = try await client.signUp(email: "Anna@Example.ch", username: "anna_m", name: "Anna")
            #expect(created.status == .ok)
            let session = try created.decode(AccountHTTP.Session.self)
            #expect(session.tokenType == "Bearer")
            #expect(session.refreshToken != nil)
            #expect(session.account?.name == "Anna")
            #expect(Set(session.account?.methods.map(\.identifier) ?? []) == ["anna@example.ch", "anna_m"])

            for login in ["anna@example.ch", "ANNA_M"] {
                let signedIn = try await client.send(
                    .post, "/account/sign-in", json: #"{"login": "\#(login)", "password": "\#(AccountHTTP.password)"}"#)
                #expect(signedIn.status == .ok)
                let account = try await client.send(
                    .get, "/account", token: try signedIn.decode(AccountHTTP.Session.self).accessToken)
                #expect(try account.decode(AccountHTTP.AccountBody.self).account.id == session.account?.id)
            }
            // Taken, the address gets the same "check your mail" as a free one (the enumeration
            // suite checks the rest); the password of this attempt signs in nowhere.
            let again = try await client.signUp(email: "anna@example.ch", password: "another long passphrase")
            #expect(again.status == .unauthorized)
        }
    }

    @Test(arguments: TestEngine.all)
    func aWrongPasswordAndAnUnknownLoginGetTheSameAnswer(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        try await app.run { client in
            _ = try await client.signUp(email: "anna@example.ch")
            let wrong = try await client.send(
                .post, "/account/sign-in", json: #"{"login": "anna@example.ch", "password": "not-the-password"}"#)
            let unknown = try await client.send(
                .post, "/account/sign-in", json: #"{"login": "nobody@example.ch", "password": "not-the-password"}"#)
            #expect(wrong.status == .unauthorized)
            #expect(unknown.status == .unauthorized)
            #expect(wrong.errorBody?.code == "invalid_credentials")
            #expect(String(buffer: wrong.body) == String(buffer: unknown.body))
        }
    }

    @Test(arguments: TestEngine.all)
    func weakPasswordsAreRefused(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        try await app.run { client in
            for password in ["short", "password123", String(repeating: "x", count: 129)] {
                let response = try await client.signUp(email: "anna@example.ch", password: password)
                #expect(response.status == .badRequest)
                #expect(response.errorBody?.code == "weak_password")
            }
        }
    }

    @Test(arguments: TestEngine.all)
    func signInIsThrottledPerAccountWithRetryAfter(engine: TestEngine) async throws {
        var environment = AccountHTTP.environment
        environment["CONCIERGE_SIGNIN_PER_ACCOUNT"] = "3"
        let app = try await TestApp.make(engine: engine, environment: environment)
        try await app.run { client in
            _ = try await client.signUpRequest(email: "anna@example.ch")
            for index in 0..<3 {
                let wrong = try await client.send(
                    .post, "/account/sign-in",
                    json: #"{"login": "anna@example.ch", "password": "wrong-\#(index)-pass"}"#,
                    headers: AccountHTTP.from("203.0.113.\(index + 1)"))
                #expect(wrong.status == .unauthorized)
            }
            // The right password, from yet another network: the account's allowance is spent.
            let blocked = try await client.send(
                .post, "/account/sign-in",
                json: #"{"login": "anna@example.ch", "password": "\#(AccountHTTP.password)"}"#,
                headers: AccountHTTP.from("198.51.100.9"))
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.errorBody?.code == "rate_limited")
            let retryAfter = try #require(blocked.headers[.retryAfter].flatMap { Int($0) })
            #expect(retryAfter > 0 && retryAfter <= 15 * 60)

            app.clock.advance(by: Double(retryAfter))
            let later = try await client.send(
                .post, "/account/sign-in",
                json: #"{"login": "anna@example.ch", "password": "\#(AccountHTTP.password)"}"#,
                headers: AccountHTTP.from("198.51.100.9"))
            #expect(later.status == .ok)
        }
    }

    @Test(arguments: TestEngine.all)
    func signInIsThrottledPerIPv6Network(engine: TestEngine) async throws {
        var environment = AccountHTTP.environment
        environment["CONCIERGE_SIGNIN_PER_NETWORK"] = "4"
        let app = try await TestApp.make(engine: engine, environment: environment)
        try await app.run { client in
            // Four addresses of one /64, each trying another login: the network's allowance.
            for index in 1...4 {
                let response = try await client.send(
                    .post, "/account/sign-in",
                    json: #"{"login": "user\#(index)@example.ch", "password": "whatever-pass"}"#,
                    headers: AccountHTTP.from("2001:db8:1:2::\(index)"))
                #expect(response.status == .unauthorized)
            }
            let sameNetwork = try await client.send(
                .post, "/account/sign-in", json: #"{"login": "user9@example.ch", "password": "whatever-pass"}"#,
                headers: AccountHTTP.from("2001:db8:1:2:ffff::1"))
            #expect(sameNetwork.status == .tooManyRequests)
            #expect(sameNetwork.headers[.retryAfter] != nil)
            let otherNetwork = try await client.send(
                .post, "/account/sign-in", json: #"{"login": "user9@example.ch", "password": "whatever-pass"}"#,
                headers: AccountHTTP.from("2001:db8:1:3::1"))
            #expect(otherNetwork.status == .unauthorized)
        }
    }

    @Test(arguments: TestEngine.all)
    func theVerificationLinkVerifiesTheEmailOnce(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        try await app.runWithWorker { client, worker in
            let session = try await client.signUp(email: "anna@example.ch").decode(AccountHTTP.Session.self)
            #expect(session.account?.verifiedEmails == [])
            let token = try await client.mailedToken(to: "anna@example.ch", subject: "Confirm", delivering: worker)
            let verified = try await client.send(
                .post, "/account/email/verify", json: #"{"token": "\#(token)"}"#, token: session.accessToken)
            #expect(verified.status == .ok)
            let account = try await client.send(.get, "/account", token: session.accessToken)
            #expect(try account.decode(AccountHTTP.AccountBody.self).account.verifiedEmails == ["anna@example.ch"])
            let again = try await client.send(.post, "/account/email/verify", json: #"{"token": "\#(token)"}"#)
            #expect(again.errorBody?.code == "invalid_token")
            // Verified, there is nothing to resend.
            #expect(try await client.send(.post, "/account/email/resend", token: session.accessToken).status == .ok)
            await worker.tick()
            #expect(try await client.emails(subjectContaining: "Confirm").count == 1)
        }
    }

    @Test(arguments: TestEngine.all)
    func aResentLinkVerifiesAndAnUnusedOneDiesAfterADay(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        try await app.runWithWorker { client, worker in
            let session = try await client.signUp(email: "anna@example.ch").decode(AccountHTTP.Session.self)
            let first = try await client.mailedToken(to: "anna@example.ch", subject: "Confirm", delivering: worker)
            app.clock.advance(by: 60)
            #expect(try await client.send(.post, "/account/email/resend", token: session.accessToken).status == .ok)
            let second = try await client.mailedToken(to: "anna@example.ch", subject: "Confirm", delivering: worker)
            #expect(second != first)
            #expect(
                try await client.send(.post, "/account/email/verify", json: #"{"token": "\#(second)"}"#).status == .ok)
            // After 24 hours an unused link is dead whatever happened since.
            app.clock.advance(by: 24 * 3600)
            let late = try await client.send(.post, "/account/email/verify", json: #"{"token": "\#(first)"}"#)
            #expect(late.errorBody?.code == "invalid_token")
        }
    }

    @Test(arguments: TestEngine.all)
    func aPasswordResetChangesThePasswordAndEndsEverySession(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        try await app.runWithWorker { client, worker in
            let session = try await client.signUp(email: "anna@example.ch").decode(AccountHTTP.Session.self)
            let forgot = try await client.send(
                .post, "/account/password/forgot", json: #"{"email": "anna@example.ch"}"#)
            let unknown = try await client.send(
                .post, "/account/password/forgot", json: #"{"email": "bob@example.ch"}"#)
            #expect(forgot.status == .ok)
            #expect(String(buffer: forgot.body) == String(buffer: unknown.body))
            let token = try await client.mailedToken(to: "anna@example.ch", subject: "Reset", delivering: worker)
            #expect(try await client.emails(subjectContaining: "Reset").count == 1)

            // An hour later the link is dead.
            app.clock.advance(by: 3601)
            let late = try await client.send(
                .post, "/account/password/reset", json: #"{"token": "\#(token)", "password": "a-new-long-password"}"#)
            #expect(late.errorBody?.code == "invalid_token")
            app.clock.advance(by: -3601)

            let reset = try await client.send(
                .post, "/account/password/reset", json: #"{"token": "\#(token)", "password": "a-new-long-password"}"#)
            #expect(reset.status == .ok)
            #expect(try await client.send(.get, "/account", token: session.accessToken).status == .unauthorized)
            let old = try await client.send(
                .post, "/account/sign-in",
                json: #"{"login": "anna@example.ch", "password": "\#(AccountHTTP.password)"}"#)
            #expect(old.status == .unauthorized)
            let new = try await client.send(
                .post, "/account/sign-in", json: #"{"login": "anna@example.ch", "password": "a-new-long-password"}"#)
            #expect(new.status == .ok)
            // The reset proved the mailbox.
            #expect(try new.decode(AccountHTTP.Session.self).account?.verifiedEmails == ["anna@example.ch"])
        }
    }
}

/// What the account suites share: the environment, the wire shapes they read, and the calls.
enum AccountHTTP {
    static let password = "correct horse battery"

    /// bcrypt at its lowest cost (the cost is measured in `BcryptPasswordHasherTests`), and the
    /// client address taken from X-Forwarded-For so tests can play several networks.
    static let environment = ["CONCIERGE_BCRYPT_COST": "4", "CONCIERGE_TRUST_PROXY": "true"]

    static func from(_ address: String) -> HTTPFields { [.init("X-Forwarded-For")!: address] }

    struct Method: Decodable {
        let kind: String
        let identifier: String
        let verified: Bool
        let hasPassword: Bool
    }

    struct Account: Decodable {
        let id: String
        let name: String?
        let methods: [Method]
        let verifiedEmails: [String]
        let verifiedPhones: [String]
    }

    struct AccountBody: Decodable {
        let success: Bool
        let account: Account
    }

    struct Session: Decodable {
        let success: Bool
        let account: Account?
        let accessToken: String
        let tokenType: String
        let expiresAt: String
        let refreshToken: String?
    }
}

extension TestClientProtocol {
    /// Signs up and, once the sign-up is accepted, signs in with the same login and password:
    /// the sign-up answers "check your mail" without a session (finding 11). Returns the
    /// sign-in's answer (200 with the session), or the sign-up's refusal.
    func signUp(
        email: String? = nil, username: String? = nil, password: String = AccountHTTP.password, name: String? = nil,
        from address: String? = nil
    ) async throws -> TestResponse {
        let accepted = try await signUpRequest(
            email: email, username: username, password: password, name: name, from: address)
        guard accepted.status == .accepted else { return accepted }
        let login =
            String(
                data: try JSONEncoder().encode(["login": email ?? username ?? "", "password": password]),
                encoding: .utf8) ?? ""
        return try await send(
            .post, "/account/sign-in", json: login, headers: address.map(AccountHTTP.from) ?? [:])
    }

    /// `POST /account/sign-up` alone, its answer as it is.
    func signUpRequest(
        email: String? = nil, username: String? = nil, password: String = AccountHTTP.password, name: String? = nil,
        from address: String? = nil
    ) async throws -> TestResponse {
        var body: [String: String] = ["password": password]
        body["email"] = email
        body["username"] = username
        body["name"] = name
        let json = String(decoding: try JSONEncoder().encode(body), as: UTF8.self)
        return try await send(.post, "/account/sign-up", json: json, headers: address.map(AccountHTTP.from) ?? [:])
    }

    /// Signs up and opens the verification link with the new session, as the app that signed up
    /// does; returns the session.
    func verifiedSignUp(email: String, delivering worker: MaintenanceService) async throws -> AccountHTTP.Session {
        let session = try await signUp(email: email).decode(AccountHTTP.Session.self)
        let token = try await mailedToken(to: email, subject: "Confirm", delivering: worker)
        let verified = try await send(
            .post, "/account/email/verify", json: #"{"token": "\#(token)"}"#, token: session.accessToken)
        guard verified.status == .ok else { throw TestFailure("verify: \(verified.status)") }
        return session
    }

    /// The token in the newest account email to `recipient` whose subject has `subject`, once
    /// the worker has delivered it.
    func mailedToken(to recipient: String, subject: String, delivering worker: MaintenanceService) async throws
        -> String
    {
        let mail = try await deliveredEmails(subjectContaining: subject, to: recipient, delivering: worker).last
        let delivered = try #require(mail, "no '\(subject)' email to \(recipient)")
        let body = try #require(delivered["body"] as? String)
        let token = try #require(body.split(separator: "token=").last?.prefix { !$0.isWhitespace })
        return String(token)
    }

    /// The emails whose subject has `subject` (and that go to `recipient`, when given), once the
    /// worker has delivered at least one. The app's own maintenance service also ticks once at
    /// start and may hold a message's lease while it delivers it, so one tick of ours can find
    /// nothing to send and the outbox still empty: this ticks and looks again, yielding, never
    /// sleeping, for up to `limit` (then answers what there is, for the test to judge).
    func deliveredEmails(
        subjectContaining subject: String, to recipient: String? = nil, delivering worker: MaintenanceService,
        limit: Duration = .seconds(30)
    ) async throws -> [[String: Any]] {
        let deadline = ContinuousClock.now.advanced(by: limit)
        while true {
            await worker.tick()
            let mails = try await emails(subjectContaining: subject).filter {
                recipient == nil || ($0["to"] as? String) == recipient
            }
            guard mails.isEmpty, ContinuousClock.now < deadline else { return mails }
            await Task.yield()
        }
    }
}
