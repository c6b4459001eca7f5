import ConciergeCLI
import ConciergeKit
import Foundation
import Testing

/// `concierge stays …` against a live server: what each command prints, as a table and as JSON.
@Suite struct StaysCommandsTests {
    @Test func registerLoginSearchReserveListAndCancelPrintTablesAndJSON() async throws {
        try await LiveServer.run { server in
            let api = StaysAPI(
                network: StaysNetwork(
                    baseURL: server.baseURL.appendingPathComponent("stays"), tokens: InMemoryStaysTokenStore()))
            let table = StaysCommands(api: api, json: false)
            let json = StaysCommands(api: api, json: true)
            await #expect(throws: CLIError.self) { try await table.profile() }
            let registered = try await table.register(
                username: "anna.m", firstName: "Anna", lastName: "Meier", email: "anna@example.ch",
                phone: "+41791234567", password: "correct horse battery")
            #expect(registered.hasPrefix("Registered anna.m"))
            #expect(try await table.login("anna.m", password: "correct horse battery").hasPrefix("Signed in as anna.m"))
            #expect(try await table.profile().contains("anna@example.ch"))

            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd"
            formatter.timeZone = TimeZone(identifier: "Europe/Zurich")
            let from = formatter.string(from: Date().addingTimeInterval(30 * 86_400))
            let to = formatter.string(from: Date().addingTimeInterval(32 * 86_400))
            let rooms = try await table.rooms(from: from, to: to, guests: 2, children: nil)
            #expect(rooms.hasPrefix("ID") && rooms.contains("Suite"))
            let reserved = try await table.reserve(room: 2, from: from, to: to, guests: 2, purpose: "Conference")
            #expect(reserved.contains("Reserved Double"))
            let listed = try await json.reservations(when: "upcoming")
            let list = try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]]
            let id = try #require(list?.first?["id"] as? Int)
            #expect(try await table.reservations(when: nil).contains("confirmed"))
            #expect(try await table.cancel(id: id).contains("free of charge"))
            await #expect(throws: CLIError.self) { try await table.reservations(when: "tomorrow") }
            await #expect(throws: CLIError.self) {
                try await table.reserve(room: 2, from: "soon", to: to, guests: 2, purpose: nil)
            }
            #expect(table.logout() == "Signed out.")
        }
    }
}
