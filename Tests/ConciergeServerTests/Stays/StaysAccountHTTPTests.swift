import ConciergeModels
import ConciergeTestSupport
import Foundation
import Testing

/// Registration with per-field errors, sign-in by user name or email, the profile, and
/// 15-minute access tokens with rotating refresh tokens — through HTTP, on both engines.
@Suite struct StaysAccountHTTPTests {
    @Test(arguments: TestEngine.all)
    func registeringThenSigningInByUsernameOrEmailShowsTheOwnProfileOnly(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: StaysFixtures.environment)
        try await app.run { client in
            let registered = try await client.stays(
                .post, "/user/register", json: StaysFixtures.register("Anna.M"), as: Stays.Profile.self)
            #expect(registered.status == .created)
            #expect(
                registered.keys.isSuperset(of: ["messsage", "message", "data", "errorType", "status", "timeStamp"]))
            let profile = try registered.require()
            // The guest number comes with the sign-in: the register answer must not tell a new
            // address from a taken one (StaysRegisterEnumerationHTTPTests).
            #expect(profile.username == "anna.m" && profile.phone == "+41791234567" && profile.guestId == 0)

            let byName = try await client.stays(
                .post, "/login", json: #"{"username": "anna.m", "password": "correct horse battery"}"#,
                as: Stays.User.self
            ).require()
            #expect(byName.guestId > 0 && byName.expiresIn == 900 && !byName.refreshToken.isEmpty)
            let byEmail = try await client.stays(
                .post, "/login", json: #"{"username": "ANNA.M@example.ch", "password": "correct horse battery"}"#,
                as: Stays.User.self)
            #expect(byEmail.status == .ok && byEmail.data?.username == "anna.m")

            let own = try await client.stays(.get, "/user/anna.m", token: byName.token, as: Stays.Profile.self)
            #expect(own.data?.guestId == Int(byName.guestId) && own.data?.email == profile.email)
            _ = try await client.staysSignUp("bert")
            let other = try await client.stays(.get, "/user/bert", token: byName.token)
            #expect(other.status == .notFound && other.envelope.errorType == "not_found")

            let edited = try await client.stays(
                .patch, "/user/anna.m", json: #"{"firstName": "Annika", "phone": "0041 79 765 43 21"}"#,
                token: byName.token, as: Stays.Profile.self)
            #expect(edited.data?.firstName == "Annika" && edited.data?.phone == "+41797654321")
            #expect(edited.data?.lastName == "Meier")
        }
    }

    @Test(arguments: TestEngine.all)
    func everyBrokenRegistrationRuleIsReportedBesideItsField(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: StaysFixtures.environment)
        try await app.run { client in
            let broken = try await client.stays(
                .post, "/user/register",
                json:
                    #"{"username": "A!", "firstName": " ", "lastName": "Meier", "email": "anna@", "phone": "079 123", "password": "short"}"#,
                as: Stays.ValidationFields.self)
            #expect(broken.status == .badRequest && broken.envelope.errorType == "validation")
            #expect(
                Set(broken.data?.fields.keys.map { $0 } ?? []) == [
                    "username", "firstName", "email", "phone", "password",
                ])

            _ = try await client.staysSignUp("anna.m")
            let taken = try await client.stays(
                .post, "/user/register", json: StaysFixtures.register("ANNA.M", email: "other@example.ch"),
                as: Stays.ValidationFields.self)
            #expect(taken.status == .conflict && taken.data?.fields.keys.first == "username")
            // A taken email is answered like a new one (StaysRegisterEnumerationHTTPTests).
            let emailTaken = try await client.stays(
                .post, "/user/register", json: StaysFixtures.register("other", email: "anna.m@example.ch"),
                as: Stays.Profile.self)
            #expect(emailTaken.status == .created && emailTaken.envelope.errorType == nil)

            let wrong = try await client.stays(
                .post, "/login", json: #"{"username": "anna.m", "password": "wrong password!"}"#)
            #expect(wrong.status == .unauthorized && wrong.envelope.errorType == "invalid_credentials")
        }
    }

    @Test func signInsAreThrottledPerLoginWithRetryAfterInTheWrapper() async throws {
        let app = try await TestApp.make(
            engine: .sqlite,
            environment: StaysFixtures.environment.merging(["CONCIERGE_SIGNIN_PER_ACCOUNT": "3"]) { $1 })
        try await app.run { client in
            _ = try await client.staysSignUp()
            // Signing up signed in once already: two more attempts reach the limit of three.
            for _ in 0..<2 {
                let wrong = try await client.stays(
                    .post, "/login", json: #"{"username": "anna.m", "password": "wrong password!"}"#)
                #expect(wrong.status == .unauthorized)
            }
            let response = try await client.send(
                .post, "/stays/login", json: #"{"username": "anna.m", "password": "correct horse battery"}"#)
            #expect(response.status == .tooManyRequests && response.headers[.retryAfter] != nil)
            let envelope = try response.decode(Stays.APIResponse<Stays.Empty>.self)
            #expect(envelope.status == 429 && envelope.errorType != nil && envelope.data == nil)
        }
    }

    @Test(arguments: TestEngine.all)
    func accessTokensLastFifteenMinutesAndASpentRefreshTokenEndsTheFamily(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: StaysFixtures.environment)
        try await app.run { client in
            let user = try await client.staysSignUp()
            app.clock.advance(by: 16 * 60)
            let expired = try await client.stays(.get, "/user/anna.m", token: user.token)
            #expect(expired.status == .unauthorized && expired.envelope.errorType == "session_expired")

            let refreshed = try await client.stays(
                .post, "/auth/refresh", json: #"{"refreshToken": "\#(user.refreshToken)"}"#, as: Stays.User.self
            ).require()
            #expect(refreshed.refreshToken != user.refreshToken && refreshed.guestId == user.guestId)
            #expect(try await client.stays(.get, "/user/anna.m", token: refreshed.token).status == .ok)

            // The old refresh token again: someone holds a copy. The whole family ends.
            let reused = try await client.stays(
                .post, "/auth/refresh", json: #"{"refreshToken": "\#(user.refreshToken)"}"#)
            #expect(reused.status == .unauthorized && reused.envelope.errorType == "invalid_refresh_token")
            #expect(try await client.stays(.get, "/user/anna.m", token: refreshed.token).status == .unauthorized)
            let next = try await client.stays(
                .post, "/auth/refresh", json: #"{"refreshToken": "\#(refreshed.refreshToken)"}"#)
            #expect(next.status == .unauthorized)
        }
    }
}
