import ConciergeCLI
import ConciergeKit
import ConciergeModels
import Foundation
import Testing

/// ConciergeKit's events client and the CLI's events commands against a live server.
@Suite struct EventsSDKTests {
    @Test func signUpVerifyBrowseBuyPayListAndCancelThroughTheSDK() async throws {
        try await EventsLiveServer.run { server in
            let api = EventsClient(baseURL: server)
            await #expect(throws: EventsAPIError.self) { _ = try await api.bookings() }
            let signedUp = try await api.signUp(email: "anna@example.ch", password: "a long passphrase", name: "Anna")
            #expect(signedUp.user?.emailVerified == false && api.tokens.load() != nil)

            let shows = try await api.shows(EventsShowQuery(text: "flute"))
            let show = try #require(shows.first)
            #expect(try await api.show(id: show.id).seat_pricing.count == 3)
            #expect(try await api.seatMap(showID: show.id).sections.count == 3)
            let notYet = await #expect(throws: EventsAPIError.self) {
                _ = try await api.seatCheckout(.init(showId: show.id, specificSeatIds: ["stalls-A1"]))
            }
            guard case .emailNotVerified = notYet else { throw CancellationError() }

            let token = try await EventsLiveServer.verificationToken(server, email: "anna@example.ch")
            try await api.verifyEmail(token: token, email: "anna@example.ch")
            #expect(try await api.verifyToken().user?.emailVerified == true)
            let checkout = try await api.seatCheckout(
                .init(showId: show.id, specificSeatIds: ["stalls-A1", "stalls-A2"]))
            #expect(try await api.seats(showID: show.id).first { $0.id == "stalls-A1" }?.heldByYou == true)

            let ben = EventsClient(baseURL: server)
            _ = try await ben.signUp(email: "ben@example.ch", password: "a long passphrase", name: "Ben")
            try await ben.verifyEmail(
                token: try await EventsLiveServer.verificationToken(server, email: "ben@example.ch"),
                email: "ben@example.ch")
            let clash = await #expect(throws: EventsAPIError.self) {
                _ = try await ben.seatCheckout(.init(showId: show.id, specificSeatIds: ["stalls-A2", "stalls-A3"]))
            }
            #expect(clash == .seatsUnavailable(["stalls-A2"], clash?.message ?? ""))

            #expect(try await api.checkoutResult(sessionID: checkout.sessionId).status == .pending)
            try await EventsLiveServer.pay(checkout.url)
            let paid = try await api.checkoutResult(sessionID: checkout.sessionId)
            #expect(paid.booking?.qrCode != nil)
            #expect(try await api.bookings().map(\.status) == [.confirmed])
            #expect(try await api.cancelBooking(id: checkout.orderId).status == .cancelled)
            try await api.signOut()
            #expect(api.tokens.load() == nil)
        }
    }

    @Test func theCLIPrintsTablesJSONAndOneLineErrors() async throws {
        try await EventsLiveServer.run { server in
            let cli = EventsCommands(client: EventsClient(baseURL: server), json: false)
            let notSignedIn = await #expect(throws: CLIError.self) { _ = try await cli.tickets() }
            #expect(notSignedIn?.description.contains("concierge events signin") == true)
            #expect(
                try await cli.signUp(email: "cli@example.ch", password: "a long passphrase", name: "C").contains(
                    "Signed up"))
            let token = try await EventsLiveServer.verificationToken(server, email: "cli@example.ch")
            #expect(try await cli.verifyEmail(token: token, email: "cli@example.ch").contains("confirmed"))
            #expect(try await cli.signIn(email: "cli@example.ch", password: "a long passphrase").contains("Signed in"))
            let shows = try await cli.shows(search: nil)
            #expect(shows.hasPrefix("ID") && shows.contains("shw_demo_1"))
            #expect(try await cli.show(id: "shw_demo_1").contains("Stalls"))
            #expect(try await cli.seats(showID: "shw_demo_1", all: false).contains("FREE SEATS"))
            let bought = try await cli.buy(showID: "shw_demo_1", seats: [], quantity: 2, section: "circle")
            #expect(bought.contains("Pay here:"))
            let tickets = try await cli.tickets()
            #expect(tickets.contains("pending") && tickets.contains("The Magic Flute"))
            let json = try await EventsCommands(client: cli.client, json: true).tickets()
            #expect(try JSONDecoder().decode([Events.UserBooking].self, from: Data(json.utf8)).count == 1)
            let gone = await #expect(throws: CLIError.self) {
                _ = try await cli.buy(showID: "shw_nope", seats: ["x"], quantity: nil, section: nil)
            }
            #expect(gone?.description.contains("no show") == true)
            let both = await #expect(throws: CLIError.self) {
                _ = try await cli.buy(showID: "shw_demo_1", seats: ["stalls-A1"], quantity: 2, section: nil)
            }
            #expect(both?.description.contains("one of them") == true)
        }
    }

    @Test func theDoorAdmitsAPaidTicketOnceThroughTheSDKAndTheCLI() async throws {
        try await EventsLiveServer.run { server in
            let buyer = EventsClient(baseURL: server)
            _ = try await buyer.signUp(email: "door@example.ch", password: "a long passphrase", name: "D")
            try await buyer.verifyEmail(
                token: try await EventsLiveServer.verificationToken(server, email: "door@example.ch"),
                email: "door@example.ch")
            let checkout = try await buyer.seatCheckout(
                .init(showId: "shw_demo_1", specificSeatIds: ["stalls-B1", "stalls-B2"]))
            try await EventsLiveServer.pay(checkout.url)
            let code = try #require(try await buyer.bookings().first?.qrCode)
            let scanner = try await EventsLiveServer.scannerToken(server, name: "north door")

            let door = EventsClient(baseURL: server)
            let first = try await door.checkIn(code: code, showID: "shw_demo_1", gate: "north", scannerToken: scanner)
            #expect(first.result == .ok && first.admitted && first.attendee == "door@example.ch")
            #expect(first.seat?.contains("B1") == true && first.seat?.contains("B2") == true)

            let cli = EventsCommands(client: door, json: false)
            let again = await #expect(throws: CLIError.self) {
                _ = try await cli.checkIn(code: code, showID: nil, gate: "south", scannerToken: scanner)
            }
            #expect(again?.description.contains("already admitted at 20") == true)
            let json = await #expect(throws: EventsCheckInRefused.self) {
                _ = try await EventsCommands(client: door, json: true).checkIn(
                    code: code, showID: nil, gate: nil, scannerToken: scanner)
            }
            let answer = try JSONDecoder().decode(Events.CheckInResponse.self, from: Data((json?.output ?? "").utf8))
            #expect(answer.result == .alreadyUsed && answer.firstScannedAt != nil)

            let forged = code.split(separator: ".").dropLast().joined(separator: ".") + ".AAAA"
            let notValid = await #expect(throws: CLIError.self) {
                _ = try await cli.checkIn(code: forged, showID: nil, gate: nil, scannerToken: scanner)
            }
            #expect(notValid?.description.contains("not a valid ticket") == true)
            let wrongShow = await #expect(throws: CLIError.self) {
                _ = try await cli.checkIn(code: code, showID: "shw_demo_2", gate: nil, scannerToken: scanner)
            }
            #expect(wrongShow?.description.contains("another show") == true)
            let noToken = await #expect(throws: CLIError.self) {
                _ = try await cli.checkIn(code: code, showID: nil, gate: nil, scannerToken: "evscan_not_issued")
            }
            #expect(noToken?.description.contains("scanner token was refused") == true)
        }
    }
}
