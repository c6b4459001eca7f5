import ConciergeKit
import ConciergeModels
import Foundation
import Testing

/// The stays SDK against a live in-process server: the seed's use cases, per-field
/// registration errors, and one shared refresh for concurrent requests after the access token
/// expired.
@Suite struct StaysSDKTests {
    static let form = Stays.RegisterRequest(
        username: "anna.m", firstName: "Anna", lastName: "Meier", email: "anna@example.ch", phone: "+41 79 123 45 67",
        password: "correct horse battery")

    static func api(_ server: LiveServer) -> StaysAPI {
        StaysAPI(
            network: StaysNetwork(
                baseURL: server.baseURL.appendingPathComponent("stays"), tokens: InMemoryStaysTokenStore()))
    }

    @Test func aGuestRegistersSignsInReservesListsAndDeletesThroughTheSDK() async throws {
        try await LiveServer.run { server in
            let api = Self.api(server)
            var broken = Self.form
            broken.email = "anna@"
            broken.phone = "079"
            guard case .failure(.validation(let fields, _)) = await api.register(broken) else {
                Issue.record("expected per-field errors")
                return
            }
            #expect(Set(fields.keys) == ["email", "phone"])
            let profile = try await api.register(Self.form).get()
            let user = try await api.login(username: "anna@example.ch", password: Self.form.password).get()
            // The register answer has no guest number (it must not tell a taken email): sign-in has.
            #expect(profile.guestId == 0 && user.guestId > 0 && api.signedIn?.username == "anna.m")
            let own = try await api.profile(username: "anna.m").get()
            #expect(own.guestId == Int(user.guestId) && own.email == profile.email && own.phone == profile.phone)

            let arrival = Date().addingTimeInterval(20 * 86_400)
            let departure = arrival.addingTimeInterval(2 * 86_400)
            let rooms = try await api.roomsAvailable(
                checkIn: String(Stays.millis(arrival)), checkOut: String(Stays.millis(departure)), guests: 2
            ).get()
            let suite = try #require(rooms.first { $0.roomType == "Suite" })
            let request = Stays.ReservationRequest(
                roomHotelId: suite.id, checkIn: Stays.millis(arrival), checkOut: Stays.millis(departure), guests: 2)
            let reservation = try await api.makeReservation(request, idempotencyKey: "k1").get()
            #expect(reservation.totalPriceCents == suite.totalPriceCents)
            #expect(try await api.makeReservation(request, idempotencyKey: "k1").get().id == reservation.id)
            #expect(
                try await api.reservations(guestId: user.guestId, when: .upcoming).get().map(\.id) == [reservation.id])
            let cancellation = try await api.deleteReservation(id: reservation.id).get()
            #expect(cancellation.chargedCents == 0 && cancellation.reservation.status == "cancelled")
            guard case .failure(.conflict(let code, _)) = await api.deleteReservation(id: reservation.id) else {
                Issue.record("a second delete is a conflict")
                return
            }
            #expect(code == "already_cancelled")
        }
    }

    @Test func concurrentRequestsAfterTheAccessTokenExpiredShareOneRefresh() async throws {
        try await LiveServer.run { server in
            let api = Self.api(server)
            _ = try await api.register(Self.form).get()
            _ = try await api.login(username: "anna.m", password: Self.form.password).get()
            let before = try #require(api.signedIn)
            server.clock.advance(by: 16 * 60)
            let results = await withTaskGroup(of: Result<Stays.Profile, StaysFailure>.self) { group in
                for _ in 0..<6 { group.addTask { await api.profile(username: "anna.m") } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy { (try? $0.get()) != nil })
            let after = try #require(api.signedIn)
            #expect(after.refreshToken != before.refreshToken && after.token != before.token)
            // Had two refreshes spent the same token, the server would have ended the family.
            #expect((try? await api.profile(username: "anna.m").get()) != nil)
        }
    }

    @MainActor @Test func theViewModelsShowFieldMessagesRoomsAndMoveADeletedStayToPast() async throws {
        try await LiveServer.run { @MainActor server in
            let api = Self.api(server)
            let form = Stays.RegisterViewModel(api: api)
            form.username = "anna.m"
            form.firstName = "Anna"
            form.lastName = ""
            form.email = "anna@example.ch"
            form.phone = "+41791234567"
            form.password = "correct horse battery"
            form.passwordConfirmation = "correct horse"
            await form.register()
            #expect(form.fieldErrors.keys.first == "passwordConfirmation")
            form.passwordConfirmation = form.password
            await form.register()
            #expect(form.fieldErrors.keys.first == "lastName" && !form.registered)
            form.lastName = "Meier"
            await form.register()
            #expect(form.registered)

            let login = Stays.LoginViewModel(api: api)
            login.username = "anna.m"
            login.password = "correct horse battery"
            await login.login()
            #expect(login.user != nil)

            let search = Stays.RoomsViewModel(api: api, checkIn: Date().addingTimeInterval(10 * 86_400), nights: 2)
            await search.search()
            let room = try #require(search.rooms.first)
            let confirm = Stays.ConfirmationViewModel(
                api: api, room: room, checkIn: search.checkIn, checkOut: search.checkOut, guests: 1)
            await confirm.confirm()
            let reservation = try #require(confirm.reservation)

            let mine = Stays.MyReservationsViewModel(api: api)
            await mine.load()
            #expect(mine.upcoming.map(\.id) == [reservation.id] && mine.past.isEmpty)
            await mine.delete(reservation)
            #expect(mine.upcoming.isEmpty && mine.past.first?.status == "cancelled")
        }
    }
}
