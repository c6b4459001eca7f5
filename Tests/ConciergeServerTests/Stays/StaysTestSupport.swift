import ConciergeModels
import ConciergeTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore

@testable import ConciergeServer

/// A stays answer: the wrapper's status, message, error type and raw JSON, decoded once.
struct StaysAnswer<T: Codable & Sendable>: Sendable {
    let status: HTTPResponse.Status
    let envelope: Stays.APIResponse<T>
    /// The top-level keys the JSON had (both spellings of the message must be there).
    let keys: Set<String>

    var data: T? { envelope.data }

    func require() throws -> T {
        guard let data = envelope.data else {
            throw TestFailure("no data: \(status) \(envelope.errorType ?? "-") \(envelope.message)")
        }
        return data
    }
}

enum StaysFixtures {
    /// The test clock starts at 2027-01-15 09:00 in Zurich (a Friday); these are a Monday and a
    /// Wednesday two weeks later: two weekday nights.
    static let monday = "2027-02-01"
    static let wednesday = "2027-02-03"
    /// The guests of most stays tests are made without a worker to deliver their verification
    /// mail, so pay-at-hotel does not ask for a verified email here; `OrderLimitsHTTPTests` tests
    /// the rule as it ships (on).
    static let environment = [
        "CONCIERGE_BCRYPT_COST": "4", "CONCIERGE_STAYS_PAY_AT_HOTEL_NEEDS_VERIFIED_EMAIL": "false",
    ]

    static func register(_ username: String, email: String? = nil) -> String {
        """
        {"username": "\(username)", "firstName": "Anna", "lastName": "Meier",
         "email": "\(email ?? "\(username)@example.ch")", "phone": "+41 79 123 45 67",
         "password": "correct horse battery"}
        """
    }

    /// Epoch milliseconds of noon UTC on a `YYYY-MM-DD` (the same date in Zurich).
    static func millis(_ day: String) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let parts = day.split(separator: "-").compactMap { Int($0) }
        let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))!
        return Int64(date.timeIntervalSince1970 * 1000)
    }

    static func reserve(room: Int64 = 2, from: String = monday, to: String = wednesday, guests: Int = 2) -> String {
        #"{"roomHotelId": \#(room), "checkIn": \#(millis(from)), "checkOut": \#(millis(to)), "guests": \#(guests), "purpose": "Holiday", "price": 1}"#
    }
}

extension TestClientProtocol {
    func stays<T: Codable & Sendable>(
        _ method: HTTPRequest.Method, _ path: String, json: String? = nil, token: String? = nil,
        headers: HTTPFields = [:], as type: T.Type = Stays.Empty.self
    ) async throws -> StaysAnswer<T> {
        let response = try await send(method, "/stays" + path, json: json, token: token, headers: headers)
        let data = Data(buffer: response.body)
        do {
            let envelope = try JSONDecoder().decode(Stays.APIResponse<T>.self, from: data)
            let object = (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
            return StaysAnswer(status: response.status, envelope: envelope, keys: Set(object.keys))
        } catch {
            throw TestFailure("\(method) \(path): \(response.status) \(String(decoding: data, as: UTF8.self))")
        }
    }

    /// The dev outbox once it holds a message containing `text`: the worker delivers queued
    /// messages, and the app's own start-up tick may hold a lease a moment, so this ticks and
    /// looks again (yielding, never sleeping).
    func staysOutbox(containing text: String, delivering worker: MaintenanceService) async throws -> String {
        var outbox = ""
        for _ in 0..<200 where !outbox.contains(text) {
            await worker.tick()
            outbox = String(buffer: try await send(.get, "/dev/outbox").body)
            if !outbox.contains(text) { await Task.yield() }
        }
        return outbox
    }

    /// Registers and signs in; the user's tokens.
    func staysSignUp(_ username: String = "anna.m") async throws -> Stays.User {
        let registered = try await stays(
            .post, "/user/register", json: StaysFixtures.register(username), as: Stays.Profile.self)
        guard registered.status == .created else { throw TestFailure("register: \(registered.envelope.message)") }
        return try await stays(
            .post, "/login", json: #"{"username": "\#(username)", "password": "correct horse battery"}"#,
            as: Stays.User.self
        ).require()
    }
}

/// `StaysConfiguration`'s parsing, as the module does it when it mounts.
enum StaysConfigurationProbe {
    static func parse(_ environment: [String: String]) throws -> StaysConfiguration {
        try StaysConfiguration(environment: environment)
    }
}
