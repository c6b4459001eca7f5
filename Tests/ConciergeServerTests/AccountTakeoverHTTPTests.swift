import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Pre-account takeover (finding 1 of the 2026-11-27 review): Mallory signs up with Vera's
/// address before Vera does. Until the mailbox is proven the account gains nothing, and the first
/// proof of the mailbox removes whatever was made on it before.
@Suite struct AccountTakeoverHTTPTests {
    static let mallorysPassword = "mallorys own passphrase 1"

    @Test(arguments: TestEngine.all)
    func anAccountWithOnlyAnUnconfirmedEmailCannotLinkOrBeJoined(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        try await app.run { client in
            let squatted = try await client.signUp(email: "vera@example.ch", password: Self.mallorysPassword)
                .decode(AccountHTTP.Session.self)
            _ = try await client.send(.post, "/rides/sms-code-send", json: #"{"phone": "+41795550011"}"#)
            let code = try await client.latestCode()
            let phone = try await client.send(
                .post, "/account/link", json: #"{"phone": "+41795550011", "code": "\#(code)"}"#,
                token: squatted.accessToken)
            #expect(phone.status == .forbidden)
            #expect(phone.errorBody?.code == "email_not_verified")

            // Nor can Mallory's own (proven) rides account take the squatted one in.
            app.clock.advance(by: 60)
            let rides = try await client.signIn(phone: "+41795550022")
            let joined = try await client.send(
                .post, "/account/link",
                json: #"{"login": "vera@example.ch", "password": "\#(Self.mallorysPassword)"}"#,
                token: rides.sessionToken)
            #expect(joined.status == .forbidden)
            #expect(joined.errorBody?.code == "email_not_verified")
            let account = try await client.send(.get, "/account", token: squatted.accessToken)
                .decode(AccountHTTP.AccountBody.self).account
            #expect(account.methods.map(\.kind) == ["email"])
        }
    }

    /// The review's transcript, with the user name Mallory could still add at sign-up: the
    /// reset proves Vera's mailbox, so the user name, Mallory's password and her sessions go,
    /// and Vera is told what was removed.
    @Test(arguments: TestEngine.all)
    func aResetThatFirstProvesTheMailboxRemovesEverythingMadeBefore(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        try await app.runWithWorker { client, worker in
            let mallory = try await client.signUp(
                email: "vera@example.ch", username: "mallory", password: Self.mallorysPassword
            ).decode(AccountHTTP.Session.self)
            let accountID = try #require(mallory.account?.id)

            _ = try await client.send(.post, "/account/password/forgot", json: #"{"email": "vera@example.ch"}"#)
            let token = try await client.mailedToken(to: "vera@example.ch", subject: "Reset", delivering: worker)
            let reset = try await client.send(
                .post, "/account/password/reset",
                json: #"{"token": "\#(token)", "password": "veras real passphrase 9"}"#)
            #expect(reset.status == .ok)

            let vera = try await client.send(
                .post, "/account/sign-in", json: #"{"login": "vera@example.ch", "password": "veras real passphrase 9"}"#
            )
            let account = try #require(try vera.decode(AccountHTTP.Session.self).account)
            #expect(account.id == accountID)
            #expect(account.methods.map(\.identifier) == ["vera@example.ch"])
            #expect(account.verifiedEmails == ["vera@example.ch"])
            for login in ["mallory", "vera@example.ch"] {
                let old = try await client.send(
                    .post, "/account/sign-in", json: #"{"login": "\#(login)", "password": "\#(Self.mallorysPassword)"}"#
                )
                #expect(old.status == .unauthorized)
            }
            #expect(try await client.send(.get, "/account", token: mallory.accessToken).status == .unauthorized)

            await worker.tick()
            let notice = try await client.emails(subjectContaining: "We removed sign-in methods").last
            #expect(notice?["to"] as? String == "vera@example.ch")
            #expect((notice?["body"] as? String)?.contains("the user name mallory") == true)
        }
    }

    /// A verification link opened without the account's session (Vera, who did not sign up,
    /// confirming an account she found in her mail) proves the mailbox the same way; opened with
    /// it (the one who signed up), nothing is removed.
    @Test(arguments: TestEngine.all)
    func aLinkOpenedByAStrangerToTheAccountRemovesWhatWasMadeBeforeTheProof(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        try await app.runWithWorker { client, worker in
            let mallory = try await client.signUp(
                email: "vera@example.ch", username: "mallory", password: Self.mallorysPassword
            ).decode(AccountHTTP.Session.self)
            let token = try await client.mailedToken(to: "vera@example.ch", subject: "Confirm", delivering: worker)
            let verified = try await client.send(.post, "/account/email/verify", json: #"{"token": "\#(token)"}"#)
            #expect(verified.status == .ok)
            #expect(try await client.send(.get, "/account", token: mallory.accessToken).status == .unauthorized)
            let old = try await client.send(
                .post, "/account/sign-in", json: #"{"login": "mallory", "password": "\#(Self.mallorysPassword)"}"#)
            #expect(old.status == .unauthorized)
            await worker.tick()
            let notice = try await client.emails(subjectContaining: "We removed sign-in methods").last
            #expect((notice?["body"] as? String)?.contains("the password chosen when the account was created") == true)

            // Anna confirms her own address from the app that signed up: she keeps everything.
            let anna = try await client.verifiedSignUp(email: "anna@example.ch", delivering: worker)
            let account = try await client.send(.get, "/account", token: anna.accessToken)
            #expect(try account.decode(AccountHTTP.AccountBody.self).account.verifiedEmails == ["anna@example.ch"])
        }
    }
}
