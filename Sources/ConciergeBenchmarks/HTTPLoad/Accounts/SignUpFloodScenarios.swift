import Foundation
import NIOConcurrencyHelpers

/// The requests of the `signup-flood` scenario (issue 26 item 3, finding 3 of the 2026-11-27
/// review): 16 connections send `POST /account/sign-up` as fast as they are answered, all from
/// one client network, while a few people sign in with their passwords from networks of their
/// own. The server trusts loopback's `X-Forwarded-For` (`CONCIERGE_TRUST_PROXY`), so each
/// request says which network it comes from, as a proxy in front of the server would.
enum SignUpFloodScenarios {
    static let name = "signup-flood"
    static let floodConnections = 16
    /// The flood's one network (TEST-NET-3, documentation addresses).
    static let floodNetwork = "203.0.113.16"
    /// The answers a flood gets from a server that defends itself: 202 "check your mail" while
    /// its network has sign-ups left this hour, 429 past the per-network or overall limit, 503
    /// when every hashing slot is busy and the queue is full. None of them is an error.
    static let floodAnswers: Set<Int> = [202, 429, 503]
    static let password = "bench sign-in passphrase 7"

    /// The names of the scenario's rows in the report.
    static let quietName = "sign-in quiet"
    static let floodedName = "sign-in under flood"
    static let floodName = "sign-up flood"

    /// The server's settings for this scenario, on top of the benchmark's: the default bcrypt
    /// cost (what a sign-in really costs) instead of the other scenarios' 4, client networks
    /// from `X-Forwarded-For`, and sign-in limits high enough for a closed loop of sign-ins (the
    /// flood does not sign in). The sign-up limits and the hashing gate keep their defaults —
    /// they are what is measured — unless the run's own environment sets them, which measures
    /// another setting (`CONCIERGE_SIGNUP_PER_NETWORK=1000000` lets the whole flood reach the
    /// gate).
    static func serverSettings(inherited: [String: String] = ProcessInfo.processInfo.environment)
        -> [String: String?]
    {
        var settings: [String: String?] = [
            "CONCIERGE_BCRYPT_COST": nil,
            "CONCIERGE_TRUST_PROXY": "true",
            "CONCIERGE_SIGNIN_PER_ACCOUNT": "1000000",
            "CONCIERGE_SIGNIN_PER_NETWORK": "1000000",
        ]
        // A name the run's environment does not set stays in with nil: the server's default,
        // not the other scenarios' raised limit.
        for name in settingsUnderTest { settings.updateValue(inherited[name], forKey: name) }
        return settings
    }

    /// What this scenario measures, passed on from the run's environment when set there.
    static let settingsUnderTest = [
        "CONCIERGE_SIGNUP_PER_NETWORK", "CONCIERGE_SIGNUP_PER_HOUR", "CONCIERGE_HASH_CONCURRENCY",
        "CONCIERGE_HASH_QUEUE",
    ]

    /// One account per sign-in worker, each signed up from the worker's own network before the
    /// clock starts. The networks are drawn per run, so repeated runs on one PostgreSQL database
    /// within the hour do not meet their own sign-up limits.
    struct Fixture: Sendable {
        let logins: [String]
        let networks: [String]
        /// Tells this run's addresses apart from an earlier run's on the same database.
        let runTag: String

        static func prepare(port: Int, workers: Int) async throws -> Fixture {
            let runTag = String(UUID().uuidString.prefix(8)).lowercased()
            let (second, third) = (Int.random(in: 0...255), Int.random(in: 0...255))
            let networks = (0..<workers).map { "10.\(second).\(third).\($0 + 1)" }
            let logins = (0..<workers).map { "bench-signin-\($0)-\(runTag)@example.com" }
            try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
                for (login, network) in zip(logins, networks) {
                    try await connection.send(signUp(email: login, from: network)).expect(202, "sign-up \(login)")
                    try await connection.send(signIn(login: login, from: network)).expect(200, "sign-in \(login)")
                }
            }
            return Fixture(logins: logins, networks: networks, runTag: runTag)
        }
    }

    /// Worker `worker` signs in to its own account from its own network, over and over.
    static func signIns(_ fixture: Fixture, name: String) -> LoadScenario {
        LoadScenario(name: name, summary: "POST /account/sign-in (password, bcrypt at the default cost)") {
            connection, worker, _ in
            try await connection.send(signIn(login: fixture.logins[worker], from: fixture.networks[worker]))
                .expect(200, "sign-in")
        }
    }

    /// A new address on every request, all from `floodNetwork`; every answer is counted in
    /// `answers`, and only one outside `floodAnswers` is an error.
    static func flood(_ fixture: Fixture, answers: StatusTally) -> LoadScenario {
        let addresses = Counter()
        return LoadScenario(name: floodName, summary: "POST /account/sign-up ×16, one network") { connection, _, _ in
            let email = "flood-\(addresses.next())-\(fixture.runTag)@example.com"
            let response = try await connection.send(signUp(email: email, from: floodNetwork))
            answers.count(response.status)
            guard floodAnswers.contains(response.status) else { throw LoadError("flood sign-up: \(response.summary)") }
        }
    }

    static func signUp(email: String, from network: String) -> LoadRequest {
        .postJSON(
            "/account/sign-up", #"{"email":"\#(email)","password":"\#(password)"}"#,
            headers: [("X-Forwarded-For", network)])
    }

    static func signIn(login: String, from network: String) -> LoadRequest {
        .postJSON(
            "/account/sign-in", #"{"login":"\#(login)","password":"\#(password)"}"#,
            headers: [("X-Forwarded-For", network)])
    }
}

/// How many answers of each status a scenario got, from any task.
final class StatusTally: Sendable {
    private let counts = NIOLockedValueBox<[Int: Int]>([:])

    func count(_ status: Int) {
        counts.withLockedValue { $0[status, default: 0] += 1 }
    }

    var snapshot: [Int: Int] { counts.withLockedValue { $0 } }
}
