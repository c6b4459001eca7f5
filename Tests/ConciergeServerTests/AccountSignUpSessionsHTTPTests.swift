import ConciergeStore
import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Sign-up answers "check your mail" and hands no session out, so it opens none: a session made
/// and thrown away would be a row nobody uses (and one per sign-up of a flood).
@Suite struct AccountSignUpSessionsHTTPTests {
    @Test(arguments: TestEngine.all)
    func signingUpOnTheAPIOrTheWebLeavesNoSessionRow(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        let database = try await app.configuration.storage.open(logger: TestApp.quiet)
        try await app.run { client in
            #expect(try await client.signUpRequest(email: "anna@example.ch").status == .accepted)
            var browser = WebBrowser(client: client)
            _ = try await browser.navigate("/account/sign-up")
            let page = try await browser.submit(
                "/account/web/sign-up", form: [("email", "ben@example.ch"), ("password", AccountHTTP.password)])
            #expect(page.contains("Check your mail"))
            #expect(try await Self.sessions(database) == 0)

            // The sign-in that follows is what opens one.
            let signedIn = try await client.send(
                .post, "/account/sign-in",
                json: #"{"login": "anna@example.ch", "password": "\#(AccountHTTP.password)"}"#)
            #expect(signedIn.status == .ok)
            #expect(try await Self.sessions(database) == 1)
        }
    }

    static func sessions(_ database: any SQLDatabase) async throws -> Int? {
        try await database.query("SELECT COUNT(*) AS n FROM sessions").first?.int("n")
    }
}
