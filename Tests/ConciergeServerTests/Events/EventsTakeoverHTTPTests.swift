import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Pre-account takeover through events (finding 1 of the 2026-11-27 review): Mallory signs up
/// on events with Vera's address before Vera does. Vera, who never signed up, opens the link
/// she finds in her mail — on the API or on the events page — and that first proof of her
/// mailbox removes the password Mallory chose and signs Mallory out. The one who signed up and
/// confirms with their own session keeps everything.
@Suite struct EventsTakeoverHTTPTests {
    static let mallorysPassword = "mallorys own passphrase 1"

    /// Mallory's sign-up and sign-in on events: the token she holds.
    static func squat(_ client: some TestClientProtocol, _ email: String) async throws -> String {
        let signedUp = try await client.send(
            .post, "/events/api/auth/signup",
            json: #"{"email": "\#(email)", "password": "\#(mallorysPassword)", "name": "Mallory"}"#)
        #expect(signedUp.status == .created)
        return try #require(try await signIn(client, email).decode(Events.AuthResponse.self).token)
    }

    static func signIn(_ client: some TestClientProtocol, _ email: String) async throws -> TestResponse {
        try await client.send(
            .post, "/events/api/auth/signin", json: #"{"email": "\#(email)", "password": "\#(mallorysPassword)"}"#)
    }

    @Test(arguments: TestEngine.all)
    func theOwnerConfirmingOnTheAPIRemovesTheSquattersPasswordAndSession(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine)
        try await app.runWithWorker { client, worker in
            let mallory = try await Self.squat(client, "vera@example.ch")
            let link = try await client.eventsVerificationToken(to: "vera@example.ch", worker: worker)
            let confirmed = try await client.send(
                .post, "/events/api/auth/verify-email", json: #"{"token": "\#(link)", "email": "vera@example.ch"}"#)
            #expect(confirmed.status == .ok)

            #expect(try await Self.signIn(client, "vera@example.ch").status == .unauthorized)
            #expect(try await client.send(.post, "/events/api/auth/verify", token: mallory).status == .unauthorized)
            await worker.tick()
            let notice = try await client.emails(subjectContaining: "We removed sign-in methods").last
            #expect(notice?["to"] as? String == "vera@example.ch")
            #expect((notice?["body"] as? String)?.contains("the password chosen when the account was created") == true)
        }
    }

    @Test func theOwnerConfirmingOnTheEventsPageRemovesTheSquattersPassword() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.runWithWorker { client, worker in
            let mallory = try await Self.squat(client, "vera@example.ch")
            let link = try await client.eventsVerificationToken(to: "vera@example.ch", worker: worker)
            var vera = WebBrowser(client: client)
            _ = try await vera.get("/events/verify-email?token=\(link)&email=vera%40example.ch")
            let confirmed = try await vera.post("/events/verify-email", form: [("token", link)])
            #expect(confirmed.contains("Thank you, your email address is confirmed."))

            #expect(try await Self.signIn(client, "vera@example.ch").status == .unauthorized)
            #expect(try await client.send(.post, "/events/api/auth/verify", token: mallory).status == .unauthorized)
        }
    }

    /// The one who signed up confirms from the app (its token sent) or from the browser signed
    /// in to the account: the mailbox is theirs, nothing is removed.
    @Test func theOneWhoSignedUpConfirmingSignedInKeepsThePasswordAndSession() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.runWithWorker { client, worker in
            let anna = try await Self.squat(client, "anna@example.ch")
            let link = try await client.eventsVerificationToken(to: "anna@example.ch", worker: worker)
            let confirmed = try await client.send(
                .post, "/events/api/auth/verify-email", json: #"{"token": "\#(link)", "email": "anna@example.ch"}"#,
                token: anna)
            #expect(confirmed.status == .ok)
            let still = try await client.send(.post, "/events/api/auth/verify", token: anna)
            #expect(try still.decode(Events.AuthResponse.self).user?.emailVerified == true)
            #expect(try await Self.signIn(client, "anna@example.ch").status == .ok)

            _ = try await Self.squat(client, "ben@example.ch")
            let benLink = try await client.eventsVerificationToken(to: "ben@example.ch", worker: worker)
            var ben = WebBrowser(client: client)
            _ = try await ben.navigate("/account/sign-in")
            let signedIn = try await ben.post(
                "/account/web/sign-in", form: [("login", "ben@example.ch"), ("password", Self.mallorysPassword)],
                follow: false)
            #expect(signedIn.status == 303)
            _ = try await ben.get("/events/verify-email?token=\(benLink)&email=ben%40example.ch")
            let page = try await ben.post("/events/verify-email", form: [("token", benLink)])
            #expect(page.contains("Thank you, your email address is confirmed."))
            #expect(try await Self.signIn(client, "ben@example.ch").status == .ok)
        }
    }
}
