import ConciergeModels
import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Linking with proof of both methods: the session proves one, the request body the other.
@Suite struct AccountLinkHTTPTests {
    @Test(arguments: TestEngine.all)
    func aPhoneLinksToAnEmailAccountWithItsSMSCode(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        try await app.runWithWorker { client, worker in
            // Only a confirmed address can gain methods (AccountTakeoverHTTPTests).
            let session = try await client.verifiedSignUp(email: "anna@example.ch", delivering: worker)
            let accountID = try #require(session.account?.id)
            _ = try await client.send(.post, "/rides/sms-code-send", json: #"{"phone": "+41 79 555 00 11"}"#)
            let code = try await client.latestCode()

            let wrong = try await client.send(
                .post, "/account/link",
                json: #"{"phone": "+41795550011", "code": "\#(code == "000000" ? "111111" : "000000")"}"#,
                token: session.accessToken)
            #expect(wrong.errorBody?.code == "invalid_code")
            let linked = try await client.send(
                .post, "/account/link", json: #"{"phone": "+41795550011", "code": "\#(code)"}"#,
                token: session.accessToken)
            #expect(linked.status == .ok)
            #expect(try linked.decode(AccountHTTP.AccountBody.self).account.verifiedPhones == ["+41795550011"])

            // A rides sign-in with that phone now lands on the same account.
            let rides = try await client.signIn(phone: "+41795550011")
            #expect(rides.customer.id == accountID)
        }
    }

    @Test(arguments: TestEngine.all)
    func aPasswordProofJoinsTwoAccountsAndTheRidesAccountRemains(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        try await app.runWithWorker { client, worker in
            let rides = try await client.signIn(phone: "+41791234567")
            let events = try await client.verifiedSignUp(email: "anna@example.ch", delivering: worker)

            let missingProof = try await client.send(.post, "/account/link", json: "{}", token: rides.sessionToken)
            #expect(missingProof.status == .badRequest)
            let badPassword = try await client.send(
                .post, "/account/link", json: #"{"login": "anna@example.ch", "password": "not-her-password"}"#,
                token: rides.sessionToken)
            #expect(badPassword.errorBody?.code == "invalid_credentials")

            let linked = try await client.send(
                .post, "/account/link", json: #"{"login": "anna@example.ch", "password": "\#(AccountHTTP.password)"}"#,
                token: rides.sessionToken)
            #expect(linked.status == .ok)
            let account = try linked.decode(AccountHTTP.AccountBody.self).account
            #expect(account.id == rides.customer.id)
            #expect(Set(account.methods.map(\.kind)) == ["phone", "email"])
            // The email's session follows its method to the joined account.
            let viaEmail = try await client.send(.get, "/account", token: events.accessToken)
            #expect(try viaEmail.decode(AccountHTTP.AccountBody.self).account.id == rides.customer.id)
            let signIn = try await client.send(
                .post, "/account/sign-in",
                json: #"{"login": "anna@example.ch", "password": "\#(AccountHTTP.password)"}"#)
            #expect(try signIn.decode(AccountHTTP.Session.self).account?.id == rides.customer.id)
        }
    }

    /// Issue 26 item 5: two rides accounts used to be refused (409); now both bookings lists
    /// end on the joined account, whose rides profile is the one with bookings.
    @Test(arguments: TestEngine.all)
    func twoRidesAccountsJoinWithBothBookingsLists(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        try await app.run { client in
            let first = try await client.signIn(phone: "+41791234567")
            let pickup = app.clock.now.addingTimeInterval(3 * 86_400)
            #expect(try await client.book(token: first.sessionToken, pickupAt: pickup).status == .ok)
            app.clock.advance(by: 60)
            let second = try await client.signIn(phone: "+41797654321")
            #expect(
                try await client.book(token: second.sessionToken, pickupAt: pickup.addingTimeInterval(3600)).status
                    == .ok)
            app.clock.advance(by: 60)
            _ = try await client.send(.post, "/rides/sms-code-send", json: #"{"phone": "+41797654321"}"#)
            let code = try await client.latestCode()
            let joined = try await client.send(
                .post, "/account/link", json: #"{"phone": "+41797654321", "code": "\#(code)"}"#,
                token: first.sessionToken)
            #expect(joined.status == .ok)

            let account = try joined.decode(AccountHTTP.AccountBody.self).account
            #expect(Set(account.verifiedPhones) == ["+41791234567", "+41797654321"])
            for token in [first.sessionToken, second.sessionToken] {
                let bookings = try await client.send(.get, "/rides/bookings", token: token)
                    .decode(BookingListResponse.self).bookings
                #expect(bookings.count == 2)
            }
        }
    }
}
