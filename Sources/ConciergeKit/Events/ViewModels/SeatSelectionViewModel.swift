public import ConciergeModels
public import Foundation
public import Observation

extension Events {
    /// The state behind seat selection: which seats are free, the person's choice and its
    /// price, and once held, the payment link and how long the hold has left.
    ///
    /// ```swift
    /// let picker = Events.SeatSelectionViewModel(api: client, showID: show.id)
    /// await picker.load()
    /// picker.toggle("stalls-A9"); picker.toggle("stalls-A10")
    /// Text("\(picker.currency) \(picker.totalCents / 100)")
    /// await picker.hold()                                  // picker.checkout?.url to pay
    /// Text("\(picker.secondsLeft(at: .now)) s left")
    /// ```
    @Observable @MainActor public final class SeatSelectionViewModel {
        public let showID: String
        public private(set) var seats: [Events.Seat] = []
        /// The chosen seat ids, in the order chosen.
        public private(set) var selected: [String] = []
        /// The held seats and the payment link, after ``hold()``.
        public private(set) var checkout: Events.SeatCheckoutResponse?
        /// Seats someone else took while the person was choosing (highlight them).
        public private(set) var unavailable: Set<String> = []
        public private(set) var errorMessage: String?
        /// Set when buying needs a confirmed email first.
        public private(set) var needsEmailVerification = false
        /// At most this many seats per order.
        public let maximumSeats = 10

        private let api: any EventsAPI

        public init(api: any EventsAPI, showID: String) {
            self.api = api
            self.showID = showID
        }

        public func load() async {
            do {
                seats = try await api.seats(showID: showID)
                selected.removeAll { id in seats.first { $0.id == id }?.status != .available }
                errorMessage = nil
            } catch {
                errorMessage = error.message
            }
        }

        /// Chooses a free seat, or unchooses a chosen one.
        public func toggle(_ seatID: String) {
            if let index = selected.firstIndex(of: seatID) {
                selected.remove(at: index)
            } else if selected.count < maximumSeats, seats.first(where: { $0.id == seatID })?.status == .available {
                selected.append(seatID)
            }
        }

        /// The price of the chosen seats, in cents.
        public var totalCents: Int {
            selected.compactMap { id in seats.first { $0.id == id }?.priceCents }.reduce(0, +)
        }

        public var currency: String { seats.first?.currency ?? "" }

        /// Holds the chosen seats, all or nothing.
        public func hold() async {
            guard !selected.isEmpty else { return }
            do {
                checkout = try await api.seatCheckout(
                    Events.SeatCheckoutRequest(showId: showID, specificSeatIds: selected))
                unavailable = []
                errorMessage = nil
            } catch .seatsUnavailable(let gone, let message) {
                unavailable = Set(gone)
                selected.removeAll { gone.contains($0) }
                errorMessage = message
                await load()
            } catch .emailNotVerified(let message) {
                needsEmailVerification = true
                errorMessage = message
            } catch {
                errorMessage = error.message
            }
        }

        /// Whole seconds until the hold lapses (0 once it has, or before holding).
        public func secondsLeft(at now: Date) -> Int {
            guard let expiresAt = checkout.flatMap({ ISO8601DateFormatter.fractional.date(from: $0.expiresAt) }) else {
                return 0
            }
            return max(0, Int(expiresAt.timeIntervalSince(now).rounded(.down)))
        }
    }
}

extension ISO8601DateFormatter {
    /// `2026-11-22T22:44:36.849Z`, as the server writes instants.
    fileprivate static var fractional: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
