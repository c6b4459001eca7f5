import ConciergeStore
import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Events sign-up and stays registration answer "check your mail" without a session, so they
/// open none (`registerWithoutSession`), as the platform's sign-up does: a session made and
/// revoked at once would be a row nobody uses, one per sign-up of a flood.
@Suite struct VerticalSignUpSessionsHTTPTests {
    @Test(arguments: TestEngine.all)
    func eventsSignUpAndStaysRegistrationOnTheAPIAndTheWebLeaveNoSessionRow(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: StaysFixtures.environment)
        let database = try await app.configuration.storage.open(logger: TestApp.quiet)
        try await app.run { client in
            let events = try await client.send(
                .post, "/events/api/auth/signup",
                json: #"{"email": "eva@example.ch", "password": "a long passphrase", "name": "Eva"}"#)
            #expect(events.status == .created)
            let stays = try await client.send(.post, "/stays/user/register", json: StaysFixtures.register("sam"))
            #expect(stays.status == .created)
            var browser = WebBrowser(client: client)
            _ = try await browser.get("/stays/register")
            let page = try await browser.post(
                "/stays/register",
                form: [
                    ("username", "tina"), ("firstName", "Tina"), ("lastName", "Meier"), ("email", "tina@example.ch"),
                    ("phone", "+41 79 123 45 67"), ("password", "correct horse battery"),
                ], follow: false)
            #expect(page.status == 303 && page.location == "/stays/sign-in?done=registered")
            #expect(try await AccountSignUpSessionsHTTPTests.sessions(database) == 0)

            // Each account was made all the same: the sign-in that follows opens the session.
            let signedIn = try await client.send(
                .post, "/events/api/auth/signin", json: #"{"email": "eva@example.ch", "password": "a long passphrase"}"#
            )
            #expect(signedIn.status == .ok)
            #expect(try await AccountSignUpSessionsHTTPTests.sessions(database) == 1)
            let tina = try await client.send(
                .post, "/stays/login", json: #"{"username": "tina", "password": "correct horse battery"}"#)
            #expect(tina.status == .ok)
        }
    }
}
