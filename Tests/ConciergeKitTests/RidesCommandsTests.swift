import ConciergeCLI
import ConciergeKit
import Foundation
import Testing

/// The CLI's rides commands against a live server: what a person sees, and `--json`.
@Suite struct RidesCommandsTests {
    static func commands(_ server: LiveServer, json: Bool = false, manager: AuthenticationManager) -> RidesCommands {
        RidesCommands(client: server.client, manager: manager, json: json)
    }

    @Test func loginPriceBookListShowCancelLogout() async throws {
        try await LiveServer.run { server in
            let manager = AuthenticationManager(store: InMemorySessionStore())
            let cli = Self.commands(server, manager: manager)

            let notSignedIn = await #expect(throws: CLIError.self) { _ = try await cli.bookings() }
            #expect(notSignedIn?.description.contains("concierge rides login") == true)

            let code = LockedCode()
            let login = try await cli.login(phone: "+41791234567") {
                code.value
            } preparing: {
                code.value = try await server.latestCode()
            }
            #expect(login.contains("Signed in as +41791234567"))
            #expect(manager.isAuthenticated)

            let places = try await cli.places("ZRH")
            #expect(places.hasPrefix("PLACE ID"))
            #expect(places.contains("gz_iata_ZRH"))

            let zurichDay = SwissDateTime.zurichComponents(of: Date().addingTimeInterval(4 * 86_400))
            let at = String(
                format: "%04d-%02d-%02d 14:00", zurichDay.year ?? 0, zurichDay.month ?? 0, zurichDay.day ?? 0)
            let price = try await cli.price(from: "ZRH", to: "Bern", at: at)
            #expect(price.contains("business") && price.contains("CHF"))

            let booked = try await cli.book(
                from: "ZRH", to: "Bern", at: at, vehicleClass: "xl", passengers: 5, flight: "lx 318")
            #expect(booked.contains("Booked VRM-"))
            #expect(booked.contains("/sandbox/checkout/"))

            let json = Self.commands(server, json: true, manager: manager)
            let list = try JSONSerialization.jsonObject(with: Data(try await json.bookings().utf8)) as? [String: Any]
            let reference = try #require((list?["bookings"] as? [[String: Any]])?.first?["reference"] as? String)

            #expect(try await cli.show(reference).contains("awaiting_payment"))
            #expect(try await cli.cancel(reference).contains("cancelled"))
            #expect(await cli.logout() == "Signed out.")
            #expect(!manager.isAuthenticated)
        }
    }

    @Test func errorsAreOneLineAPersonCanActOn() async throws {
        let offline = RidesCommands(
            client: ConciergeClient(baseURL: URL(string: "http://127.0.0.1:1")!),
            manager: AuthenticationManager(store: InMemorySessionStore()), json: false)
        do {
            _ = try await offline.places("zurich")
            Issue.record("expected an error")
        } catch {
            let message = CLIError.message(for: error)
            #expect(message.contains("cannot be reached"))
            #expect(!message.contains("\n"))
        }
        #expect(CLIError.message(for: BookingError.unauthorized).contains("concierge rides login"))
        await #expect(throws: CLIError.self) {
            _ = try await offline.price(from: "gz_iata_ZRH", to: "gz_geo_2657896", at: "tomorrow noon")
        }
    }
}

/// The code the "person" types, filled in once the SMS has arrived.
final class LockedCode: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?
    var value: String? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
