import ConciergeKit
import ConciergeModels
import Foundation
import Testing

/// The events view models over a fake `EventsAPI`: search, the price of a selection, a hold
/// that loses a seat to someone else, and the hold's countdown.
@MainActor @Suite struct EventsViewModelTests {
    /// Answers the catalogue from memory; a seat checkout succeeds unless a seat is in `gone`.
    final class FakeAPI: EventsAPI, @unchecked Sendable {
        var gone: Set<String> = []
        var verified = true
        var queries: [String?] = []

        static func seat(_ id: String, _ status: Events.Seat.Status = .available) -> Events.Seat {
            Events.Seat(
                id: id, row: "A", number: String(id.last ?? "1"), section: "Stalls", price: 120, status: status,
                seatMapId: "ven", priceCents: 12_000, currency: "CHF", heldByYou: nil)
        }

        func shows(_ query: EventsShowQuery) async throws(EventsAPIError) -> [Events.Show] {
            queries.append(query.text)
            return []
        }

        func seats(showID: String) async throws(EventsAPIError) -> [Events.Seat] {
            [Self.seat("A1"), Self.seat("A2", gone.contains("A2") ? .reserved : .available), Self.seat("A3", .sold)]
        }

        func seatCheckout(_ request: Events.SeatCheckoutRequest) async throws(EventsAPIError)
            -> Events.SeatCheckoutResponse
        {
            guard verified else { throw .emailNotVerified("Confirm your email first.") }
            let taken = (request.specificSeatIds ?? []).filter { gone.contains($0) }
            guard taken.isEmpty else { throw .seatsUnavailable(taken, "Taken: \(taken)") }
            return Events.SeatCheckoutResponse(
                url: "https://pay", sessionId: "evs_1", orderId: "ord_1", expiresAt: "2030-01-01T12:15:00.000Z",
                seatIds: request.specificSeatIds ?? [], totalAmount: 240, totalAmountCents: 24_000, currency: "CHF")
        }

        func signUp(email: String, password: String, name: String) async throws(EventsAPIError) -> Events.AuthResponse {
            throw .server("not faked")
        }
        func signIn(email: String, password: String) async throws(EventsAPIError) -> Events.AuthResponse {
            throw .server("not faked")
        }
        func socialSignIn(_ request: Events.SocialSignInRequest) async throws(EventsAPIError) -> Events.AuthResponse {
            throw .server("not faked")
        }
        func signIn(idToken request: Events.IDTokenSignInRequest) async throws(EventsAPIError) -> Events.AuthResponse {
            throw .server("not faked")
        }
        func sendPhoneCode(to phone: String) async throws(EventsAPIError) -> Events.PhoneCodeSent {
            throw .server("not faked")
        }
        func signIn(phone: String, code: String) async throws(EventsAPIError) -> Events.AuthResponse {
            throw .server("not faked")
        }
        func verifyToken() async throws(EventsAPIError) -> Events.AuthResponse { throw .server("not faked") }
        func verifyEmail(token: String, email: String) async throws(EventsAPIError) {}
        func resendVerification(email: String) async throws(EventsAPIError) {}
        func forgotPassword(email: String) async throws(EventsAPIError) {}
        func resetPassword(token: String, password: String) async throws(EventsAPIError) {}
        func signOut() async throws(EventsAPIError) {}
        func show(id: String) async throws(EventsAPIError) -> Events.Show { throw .notFound("not faked") }
        func seatMap(showID: String) async throws(EventsAPIError) -> Events.SeatMap { throw .notFound("not faked") }
        func checkoutResult(sessionID: String) async throws(EventsAPIError) -> Events.CheckoutSuccessResponse {
            throw .notFound("not faked")
        }
        func bookings() async throws(EventsAPIError) -> [Events.UserBooking] { [] }
        func cancelBooking(id: String) async throws(EventsAPIError) -> Events.CheckoutSuccessResponse {
            throw .notFound("not faked")
        }
        func checkIn(code: String, showID: String, gate: String?, scannerToken: String) async throws(EventsAPIError)
            -> Events.CheckInResponse
        { throw .notFound("not faked") }
    }

    @Test func theListSearchesWithTheTrimmedText() async {
        let api = FakeAPI()
        let list = Events.ShowListViewModel(api: api)
        list.searchText = "  jazz "
        await list.load()
        list.searchText = ""
        await list.load()
        #expect(api.queries == ["jazz", nil])
    }

    @Test func aSelectionHasItsPriceAndOnlyFreeSeatsCanBeChosen() async {
        let picker = Events.SeatSelectionViewModel(api: FakeAPI(), showID: "shw")
        await picker.load()
        picker.toggle("A1")
        picker.toggle("A3")
        picker.toggle("A2")
        #expect(picker.selected == ["A1", "A2"] && picker.totalCents == 24_000 && picker.currency == "CHF")
        picker.toggle("A1")
        #expect(picker.selected == ["A2"])
    }

    @Test func aSeatTakenMeanwhileIsDroppedAndMarked() async {
        let api = FakeAPI()
        let picker = Events.SeatSelectionViewModel(api: api, showID: "shw")
        await picker.load()
        picker.toggle("A1")
        picker.toggle("A2")
        api.gone = ["A2"]
        await picker.hold()
        #expect(picker.checkout == nil && picker.unavailable == ["A2"] && picker.selected == ["A1"])
        #expect(picker.seats.first { $0.id == "A2" }?.status == .reserved)
        await picker.hold()
        #expect(picker.checkout?.seatIds == ["A1"])
        let expiry = Date(timeIntervalSince1970: 1_893_499_200)  // 2030-01-01T12:00:00Z
        #expect(picker.secondsLeft(at: expiry) == 900)
        #expect(picker.secondsLeft(at: expiry.addingTimeInterval(3600)) == 0)
    }

    @Test func anUnverifiedBuyerIsAskedToConfirmTheEmail() async {
        let api = FakeAPI()
        api.verified = false
        let picker = Events.SeatSelectionViewModel(api: api, showID: "shw")
        await picker.load()
        picker.toggle("A1")
        await picker.hold()
        #expect(picker.needsEmailVerification && picker.checkout == nil)
    }
}
