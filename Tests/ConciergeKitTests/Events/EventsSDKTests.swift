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
}
