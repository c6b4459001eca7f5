import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// The events app's own calls, as the seed app makes them.
extension TestClientProtocol {
    /// Signs up, opens the verification link from the dev outbox and answers the token.
    func eventsBuyer(_ email: String, worker: MaintenanceService, verified: Bool = true) async throws -> String {
        let signedUp = try await send(
            .post, "/events/api/auth/signup",
            json: #"{"email": "\#(email)", "password": "a long passphrase", "name": "Buyer"}"#)
        guard signedUp.status == .created else {
            throw TestFailure("signup: \(signedUp.status) \(String(buffer: signedUp.body))")
        }
        // Sign-up answers "check your mail" without a session, whoever has the address: sign in.
        let signedIn = try await send(
            .post, "/events/api/auth/signin", json: #"{"email": "\#(email)", "password": "a long passphrase"}"#)
        let token = try #require(try signedIn.decode(Events.AuthResponse.self).token)
        if verified {
            // Confirmed from the app that signed up (its token sent): without it the link is a
            // stranger's proof of the mailbox, which drops the password and the session.
            let link = try await eventsVerificationToken(to: email, worker: worker)
            let confirmed = try await send(
                .post, "/events/api/auth/verify-email", json: #"{"token": "\#(link)", "email": "\#(email)"}"#,
                token: token)
            #expect(confirmed.status == .ok)
        }
        return token
    }

    func eventsVerificationToken(to email: String, worker: MaintenanceService) async throws -> String {
        for _ in 0..<200 {
            await worker.tick()
            let mail = try await emails(subjectContaining: "Confirm your email").last { ($0["to"] as? String) == email }
            if let body = mail?["body"] as? String, let range = body.range(of: "/events/verify-email?token=") {
                return String(body[range.upperBound...].prefix { $0 != "&" && !$0.isWhitespace })
            }
            await Task.yield()
        }
        throw TestFailure("no verification email to \(email)")
    }

    func seatCheckout(_ token: String, show: String = "shw_demo_1", seats: [String]) async throws -> TestResponse {
        let ids = seats.map { "\"\($0)\"" }.joined(separator: ", ")
        return try await send(
            .post, "/events/api/seat-checkout", json: #"{"showId": "\#(show)", "specificSeatIds": [\#(ids)]}"#,
            token: token)
    }

    func eventSeats(_ show: String = "shw_demo_1", token: String? = nil) async throws -> [String: Events.Seat] {
        let seats = try await send(.get, "/events/api/shows/\(show)/seats", token: token).decode([Events.Seat].self)
        return Dictionary(uniqueKeysWithValues: seats.map { ($0.id, $0) })
    }

    func eventBookings(_ token: String) async throws -> [Events.UserBooking] {
        try await send(.get, "/events/api/user/bookings", token: token).decode([Events.UserBooking].self)
    }
}

enum EventsTestApp {
    /// A cheap bcrypt cost: the tests sign up many buyers.
    static func make(_ engine: TestEngine, _ environment: [String: String] = [:]) async throws -> TestApp {
        try await TestApp.make(engine: engine, environment: ["CONCIERGE_BCRYPT_COST": "4"].merging(environment) { $1 })
    }
}
