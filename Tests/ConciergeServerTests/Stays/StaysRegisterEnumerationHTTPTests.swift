import ConciergeModels
import ConciergeTestSupport
import Foundation
import Testing

/// Stays registration does not tell who has an account (finding 11 of the 2026-11-27 review):
/// a taken email is answered exactly like a new one — same status, message and shape, no guest
/// number in either — and its owner is mailed. A taken user name may still say so.
@Suite struct StaysRegisterEnumerationHTTPTests {
    @Test(arguments: TestEngine.all)
    func registeringATakenEmailAnswersLikeANewOneAndMailsTheOwner(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: StaysFixtures.environment)
        try await app.runWithWorker { client, worker in
            _ = try await client.staysSignUp("anna.m")
            let taken = try await client.send(
                .post, "/stays/user/register", json: StaysFixtures.register("bert", email: "anna.m@example.ch"))
            let fresh = try await client.send(
                .post, "/stays/user/register", json: StaysFixtures.register("carl", email: "carl@example.ch"))
            #expect(taken.status == .created && fresh.status == .created)
            // Byte for byte the same answer once the submitted names are swapped (the envelope's
            // time stamp is the wall clock's, so it is left out).
            func comparable(_ body: String) -> String {
                body.replacingOccurrences(of: #""timeStamp":\d+"#, with: "", options: .regularExpression)
            }
            let swapped = String(buffer: taken.body).replacingOccurrences(
                of: "anna.m@example.ch", with: "carl@example.ch"
            ).replacingOccurrences(of: "bert", with: "carl")
            #expect(comparable(swapped) == comparable(String(buffer: fresh.body)))
            let profile = try taken.decode(Stays.APIResponse<Stays.Profile>.self).data
            #expect(profile?.guestId == 0 && profile?.email == "anna.m@example.ch")

            // Nothing was made for "bert": no sign-in, and the user name is still free.
            let bert = try await client.stays(
                .post, "/login", json: #"{"username": "bert", "password": "correct horse battery"}"#)
            #expect(bert.status == .unauthorized)
            let outbox = try await client.staysOutbox(containing: "Someone tried to register", delivering: worker)
            #expect(outbox.contains("Someone tried to register") && outbox.contains("anna.m@example.ch"))
            _ = try await client.staysSignUp("bert")
        }
    }
}
