import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Sign-up does not tell who has an account (finding 11): a free and a taken address get the
/// same status and body; the owner of the taken one is mailed instead.
@Suite struct AccountEnumerationHTTPTests {
    @Test(arguments: TestEngine.all)
    func signUpAnswersTheSameForAFreeAndATakenAddressAndMailsTheOwner(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        try await app.runWithWorker { client, worker in
            let free = try await client.signUpRequest(email: "anna@example.ch")
            let taken = try await client.signUpRequest(email: "ANNA@example.ch", password: "someone elses passphrase")
            #expect(free.status == .accepted)
            #expect(taken.status == free.status)
            #expect(String(buffer: taken.body) == String(buffer: free.body))
            #expect(String(buffer: free.body).contains("check_your_mail"))

            // The notice is written to the outbox with the sign-up and delivered by the worker:
            // the app's own start-up tick may be delivering it right now, so wait for it.
            let notices = try await client.deliveredEmails(
                subjectContaining: "Someone tried to register", delivering: worker)
            #expect(notices.count == 1)
            #expect(notices.first?["to"] as? String == "anna@example.ch")
            // Nothing was made for the second attempt: its password signs in nowhere.
            let second = try await client.send(
                .post, "/account/sign-in",
                json: #"{"login": "anna@example.ch", "password": "someone elses passphrase"}"#)
            #expect(second.status == .unauthorized)
        }
    }

    @Test func aTakenUserNameIsStillSaid() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: AccountHTTP.environment)
        try await app.run { client in
            #expect(try await client.signUpRequest(username: "anna_m").status == .accepted)
            let again = try await client.signUpRequest(username: "anna_m")
            #expect(again.status == .conflict)
            #expect(again.errorBody?.code == "username_taken")
        }
    }
}
