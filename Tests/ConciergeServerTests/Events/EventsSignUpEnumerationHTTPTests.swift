import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Events sign-up does not tell who has an account (finding 11 of the 2026-11-27 review): a
/// taken address is answered exactly like a new one, and its owner is mailed instead.
@Suite struct EventsSignUpEnumerationHTTPTests {
    static func signUp(_ client: some TestClientProtocol, _ email: String, password: String) async throws
        -> TestResponse
    {
        try await client.send(
            .post, "/events/api/auth/signup",
            json: #"{"email": "\#(email)", "password": "\#(password)", "name": "Sam"}"#)
    }

    @Test(arguments: TestEngine.all)
    func signingUpWithATakenAddressAnswersLikeANewOneAndMailsTheOwner(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine)
        try await app.runWithWorker { client, worker in
            let fresh = try await Self.signUp(client, "sam@example.ch", password: "a long passphrase")
            let taken = try await Self.signUp(client, "SAM@example.ch", password: "another passphrase")
            #expect(fresh.status == .created && taken.status == .created)
            #expect(fresh.body == taken.body)
            let answer = try taken.decode(Events.AuthResponse.self)
            #expect(answer.success && answer.token == nil && answer.user == nil && answer.message != nil)

            // Nothing was made for the second attempt: its password signs in to nothing.
            let squatter = try await client.send(
                .post, "/events/api/auth/signin",
                json: #"{"email": "sam@example.ch", "password": "another passphrase"}"#)
            #expect(squatter.status == .unauthorized)
            let owner = try await client.send(
                .post, "/events/api/auth/signin", json: #"{"email": "sam@example.ch", "password": "a long passphrase"}"#
            )
            #expect(owner.status == .ok)

            let notices = try await client.deliveredEmails(
                subjectContaining: "Someone tried to register", delivering: worker)
            #expect(notices.count == 1 && notices.first?["to"] as? String == "sam@example.ch")
        }
    }
}
