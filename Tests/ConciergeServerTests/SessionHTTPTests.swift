import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite struct SessionHTTPTests {
    @Test(arguments: [nil, "Bearer", "Bearer nonsense", "Basic abc", "Bearer " + String(repeating: "a", count: 2000)])
    func aMissingOrUnknownTokenIs401SessionExpired(header: String?) async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            var headers: HTTPFields = [:]
            if let header { headers[.authorization] = header }
            for (method, path) in [
                (HTTPRequest.Method.get, "/rides/me"), (.patch, "/rides/me"), (.post, "/rides/logout"),
            ] {
                let response = try await client.execute(uri: path, method: method, headers: headers)
                #expect(response.status == .unauthorized)
                #expect(response.errorBody?.code == "session_expired")
            }
        }
    }

    @Test func logoutRevokesTheSession() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let session = try await client.signIn()
            let logout = try await client.send(.post, "/rides/logout", token: session.sessionToken)
            #expect(logout.status == .ok)
            let after = try await client.send(.get, "/rides/me", token: session.sessionToken)
            #expect(after.status == .unauthorized)
            #expect(after.errorBody?.code == "session_expired")
        }
    }

    @Test func aSessionExpiresAfterSevenDays() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let session = try await client.signIn()
            app.clock.advance(by: 7 * 24 * 3600 - 60)
            #expect(try await client.send(.get, "/rides/me", token: session.sessionToken).status == .ok)
            app.clock.advance(by: 60)
            let expired = try await client.send(.get, "/rides/me", token: session.sessionToken)
            #expect(expired.status == .unauthorized)
            #expect(expired.errorBody?.code == "session_expired")
        }
    }

    @Test func patchMeSetsValidatesAndClearsNameAndEmail() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.signIn().sessionToken
            let set = try await client.send(
                .patch, "/rides/me", json: #"{"name": "Anna Muster", "email": "anna@example.ch"}"#, token: token)
            #expect(set.status == .ok)
            let customer = try set.decode(CustomerProfileResponse.self).customer
            #expect(customer.name == "Anna Muster")
            #expect(customer.email == "anna@example.ch")

            for (body, code) in [
                (#"{"name": ""}"#, "invalid_name"),
                (#"{"name": "\#(String(repeating: "a", count: 101))"}"#, "invalid_name"),
                (#"{"email": "anna"}"#, "invalid_email"), (#"{"email": "anna@example"}"#, "invalid_email"),
                (#"{"email": 42}"#, "invalid_request"),
            ] {
                let response = try await client.send(.patch, "/rides/me", json: body, token: token)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorBody?.code == code, "\(body)")
            }

            let cleared = try await client.send(.patch, "/rides/me", json: #"{"email": null}"#, token: token)
            let after = try cleared.decode(CustomerProfileResponse.self).customer
            #expect(after.name == "Anna Muster")
            #expect(after.email == nil)
        }
    }
}
