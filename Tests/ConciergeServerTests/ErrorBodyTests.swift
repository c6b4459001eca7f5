import ConciergeModels
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Bad input never produces a 500: every mistake is a 4xx with the contract's error body.
@Suite struct ErrorBodyTests {
    static let malformed: [(body: String, message: String)] = [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        (#"{"phone": 41791234567}"#, "'phone' must be a string"),
        (#"{"phone": null}"#, "'phone' must be a string"),
        (#"{"telephone": "+41791234567"}"#, "'phone' is missing"),
        ("", "needs a JSON body"),
        ("\"just a string\"", "must be a JSON object"),
    ]

    @Test(arguments: malformed)
    func malformedBodiesAre400WithAMessageNamingTheProblem(body: String, message: String) async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let response = try await client.execute(
                uri: "/rides/sms-code-send", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: body))
            #expect(response.status == .badRequest)
            let error = try #require(response.errorBody)
            #expect(error.success == false)
            #expect(error.code == "invalid_request")
            #expect(error.error.contains(message), "\(error.error)")
        }
    }

    @Test func aBodyOver64KBIs413() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let padding = String(repeating: "x", count: 70 * 1024)
            let response = try await client.send(
                .post, "/rides/sms-code-send", json: #"{"phone": "+41791234567", "padding": "\#(padding)"}"#)
            #expect(response.status == .contentTooLarge)
            #expect(response.errorBody?.code == "payload_too_large")
        }
    }

    @Test func anUnknownRouteIs404WithTheErrorBody() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let response = try await client.send(.get, "/rides/nothing-here")
            #expect(response.status == .notFound)
            #expect(response.errorBody?.code == "not_found")
        }
    }

    @Test func aWrongVerifyCodeShapeIs400InvalidCode() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let response = try await client.send(
                .post, "/rides/sms-code-verify", json: #"{"phone": "+41791234567", "code": "12ab"}"#)
            #expect(response.status == .badRequest)
            #expect(response.errorBody?.code == "invalid_code")
        }
    }
}
