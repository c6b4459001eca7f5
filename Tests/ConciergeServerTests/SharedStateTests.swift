import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Limits and sessions live in the database: instances share them and restarts keep them.
@Suite struct SharedStateTests {
    @Test(arguments: TestEngine.all)
    func sessionsSurviveARestart(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine)
        let token = try await app.run { client in try await client.signIn().sessionToken }
        // A new process on the same database: the generated dev secret and the session are still there.
        try await app.sibling().run { client in
            let me = try await client.send(.get, "/rides/me", token: token)
            #expect(me.status == .ok)
        }
    }

    @Test(.enabled(if: TestEngine.all.contains(.postgres)))
    func twoInstancesOnOnePostgresShareLimitsAndSessions() async throws {
        let first = try await TestApp.make(engine: .postgres, environment: ["CONCIERGE_OTP_SENDS_PER_PHONE_HOUR": "2"])
        let second = try first.sibling()
        try await first.run { a in
            try await second.run { b in
                // Signed in on one instance, accepted by the other.
                let session = try await a.signIn(phone: "+41795550000")
                #expect(try await b.send(.get, "/rides/me", token: session.sessionToken).status == .ok)

                // A code requested through A starts a cooldown that B enforces.
                #expect(
                    try await a.send(.post, "/rides/sms-code-send", json: #"{"phone": "+41795550000"}"#).status == .ok)
                let tooSoon = try await b.send(.post, "/rides/sms-code-send", json: #"{"phone": "+41795550000"}"#)
                #expect(tooSoon.status == .tooManyRequests)
                #expect(tooSoon.errorBody?.code == "resend_too_soon")

                // Two sends so far (both through A); with a limit of 2 per hour, B refuses a third.
                first.clock.advance(by: 31)
                let limited = try await b.send(.post, "/rides/sms-code-send", json: #"{"phone": "+41795550000"}"#)
                #expect(limited.status == .tooManyRequests)
                #expect(limited.errorBody?.code == "rate_limited")

                // Logging out on B revokes the session on A.
                #expect(try await b.send(.post, "/rides/logout", token: session.sessionToken).status == .ok)
                #expect(try await a.send(.get, "/rides/me", token: session.sessionToken).status == .unauthorized)
            }
        }
    }

    @Test(.enabled(if: TestEngine.all.contains(.postgres)))
    func concurrentGuessesOnTwoInstancesNeverExceedTheAllowance() async throws {
        let first = try await TestApp.make(engine: .postgres)
        let second = try first.sibling()
        try await first.run { a in
            try await second.run { b in
                _ = try await a.send(.post, "/rides/sms-code-send", json: #"{"phone": "+41796660000"}"#)
                let code = try await a.latestCode()
                let wrong = code == "000000" ? "111111" : "000000"
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for index in 0..<12 {
                        let client = index.isMultiple(of: 2) ? a : b
                        group.addTask {
                            try await client.send(
                                .post, "/rides/sms-code-verify",
                                json: #"{"phone": "+41796660000", "code": "\#(wrong)"}"#
                            ).status
                        }
                    }
                    return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                }
                #expect(statuses.filter { $0 == .badRequest }.count == 4)
                #expect(statuses.filter { $0 == .tooManyRequests }.count == 8)
            }
        }
    }
}
