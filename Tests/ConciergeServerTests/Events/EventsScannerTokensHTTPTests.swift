import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Door scanners' own tokens: the admin API issues, lists and revokes them; a scanner token
/// admits tickets at the door and opens nothing else; a revoked one opens nothing.
@Suite struct EventsScannerTokensHTTPTests {
    static let admin = EventsCheckInHTTPTests.scanner

    struct Token: Decodable {
        let id: String
        let name: String
        let createdAt: String
        let revokedAt: String?
        let token: String?
    }

    @Test(arguments: TestEngine.all)
    func anIssuedScannerTokenOpensTheDoorOnlyUntilRevoked(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine, ["CONCIERGE_ADMIN_TOKEN": Self.admin])
        try await app.runWithWorker { client, worker in
            let path = "/events/api/admin/scanner-tokens"
            #expect(try await client.send(.post, path, json: #"{"name": "North gate"}"#).status == .unauthorized)
            let buyer = try await client.eventsBuyer("sam@example.ch", worker: worker)
            #expect(
                try await client.send(.post, path, json: #"{"name": "North gate"}"#, token: buyer).status
                    == .unauthorized)
            #expect(
                try await client.send(.post, path, json: #"{"name": "  "}"#, token: Self.admin).status == .badRequest)

            let issued = try await client.send(.post, path, json: #"{"name": "North gate"}"#, token: Self.admin)
            #expect(issued.status == .created)
            let north = try issued.decode(Token.self)
            let secret = try #require(north.token)
            #expect(north.name == "North gate" && secret.hasPrefix("evscan_") && north.revokedAt == nil)
            let south = try await client.send(.post, path, json: #"{"name": "South gate"}"#, token: Self.admin)
                .decode(Token.self)

            // The scanner token admits a ticket; the admin token still does too.
            let first = try await EventsCheckInHTTPTests.paidTicket(client, worker: worker, seats: ["stalls-C7"])
            let scanned = try await EventsCheckInHTTPTests.scan(client, qrCode: first.qrCode, token: secret)
            #expect(try scanned.decode(EventsCheckInHTTPTests.Scan.self).result == "ok")
            let second = try await EventsCheckInHTTPTests.paidTicket(client, worker: worker, seats: ["stalls-C9"])
            #expect(
                try await EventsCheckInHTTPTests.scan(client, qrCode: second.qrCode, token: Self.admin)
                    .decode(EventsCheckInHTTPTests.Scan.self).result == "ok")

            // It opens nothing but the door: not the box office, not the token list.
            #expect(
                try await client.send(.get, "/events/api/admin/shows/shw_demo_1/counts", token: secret).status
                    == .unauthorized)
            #expect(try await client.send(.get, path, token: secret).status == .unauthorized)

            // The list never shows the tokens themselves.
            let listed = try await client.send(.get, path, token: Self.admin).decode([Token].self)
            #expect(Set(listed.map(\.name)) == ["North gate", "South gate"] && listed.allSatisfy { $0.token == nil })

            // Revoked: the door refuses it at once; the other scanner is untouched.
            let revoked = try await client.send(.delete, "\(path)/\(north.id)", token: Self.admin)
            #expect(revoked.status == .ok)
            #expect(try revoked.decode(Token.self).revokedAt != nil)
            let third = try await EventsCheckInHTTPTests.paidTicket(client, worker: worker, seats: ["stalls-D7"])
            #expect(
                try await EventsCheckInHTTPTests.scan(client, qrCode: third.qrCode, token: secret).status
                    == .unauthorized)
            #expect(try await client.send(.delete, "\(path)/scn_unknown", token: Self.admin).status == .notFound)
            let after = try await client.send(.get, path, token: Self.admin).decode([Token].self)
            #expect(after.first { $0.id == north.id }?.revokedAt != nil)
            #expect(after.first { $0.id == south.id }?.revokedAt == nil)
            // A guessed token of the right shape opens nothing.
            #expect(
                try await EventsCheckInHTTPTests.scan(client, qrCode: third.qrCode, token: "evscan_guess").status
                    == .unauthorized)
        }
    }
}
