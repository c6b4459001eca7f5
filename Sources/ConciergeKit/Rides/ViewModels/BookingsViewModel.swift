public import ConciergeModels
import Foundation
public import Observation

extension Rides {
    /// The state behind the booking history screen: the signed-in customer's bookings, newest
    /// first, loaded a page at a time, and cancelling one in place.
    ///
    /// An expired or missing session signs the manager out and sets ``sessionExpired``.
    ///
    /// ```swift
    /// let history = BookingsViewModel(service: .shared, manager: .shared)
    /// await history.load()                               // the first page
    /// if history.hasMore { await history.loadMore() }    // the next one
    /// await history.cancel(reference: "VRM-123456")      // its row now says "cancelled"
    /// ```
    @Observable @MainActor public final class BookingsViewModel {
        /// The loaded bookings, newest first.
        ///
        /// ```swift
        /// List(history.bookings) { Text("\($0.reference) \($0.status)") }
        /// ```
        public private(set) var bookings: [BookingSummary] = []

        /// Whether a page is being loaded.
        ///
        /// ```swift
        /// if history.isLoading { ProgressView() }
        /// ```
        public private(set) var isLoading = false

        /// The reference of the booking being cancelled, if any.
        ///
        /// ```swift
        /// if history.cancelling == booking.reference { ProgressView() }
        /// ```
        public private(set) var cancelling: String?

        /// What went wrong last, worded for the customer; `nil` after a step succeeds.
        ///
        /// ```swift
        /// if let message = history.errorMessage { Text(message) }
        /// ```
        public private(set) var errorMessage: String?

        /// Set when the session expired or is missing; show the sign-in screen.
        ///
        /// ```swift
        /// if history.sessionExpired { showLogin() }
        /// ```
        public private(set) var sessionExpired = false

        /// Where the next page starts; `nil` before loading and after the last page.
        ///
        /// ```swift
        /// history.nextOffset   // 20 after a full first page
        /// ```
        public private(set) var nextOffset: Int?

        /// How many bookings a page holds.
        ///
        /// ```swift
        /// BookingsViewModel(pageSize: 10).pageSize   // 10
        /// ```
        public let pageSize: Int

        private let service: BookingService
        private let manager: AuthenticationManager

        /// Creates the model.
        ///
        /// ```swift
        /// let history = BookingsViewModel(
        ///     service: BookingService(client: client), manager: manager, pageSize: 20)
        /// ```
        public init(service: BookingService = .shared, manager: AuthenticationManager = .shared, pageSize: Int = 20) {
            self.service = service
            self.manager = manager
            self.pageSize = max(1, pageSize)
        }

        /// Whether ``loadMore()`` has a page to load.
        ///
        /// ```swift
        /// if history.hasMore { ProgressView().task { await history.loadMore() } }
        /// ```
        public var hasMore: Bool { nextOffset != nil }

        /// Loads the first page, replacing what was loaded before (pull to refresh).
        ///
        /// ```swift
        /// .refreshable { await history.load() }
        /// ```
        public func load() async {
            await loadPage(offset: 0)
        }

        /// Appends the next page; does nothing on the last page or while loading.
        ///
        /// ```swift
        /// await history.loadMore()
        /// ```
        public func loadMore() async {
            guard let nextOffset else { return }
            await loadPage(offset: nextOffset)
        }

        /// Cancels a booking and replaces its row with the server's answer (status "cancelled").
        /// A cancellation the policy refuses leaves the row and sets ``errorMessage``.
        ///
        /// ```swift
        /// await history.cancel(reference: booking.reference)
        /// ```
        public func cancel(reference: String) async {
            guard cancelling == nil else { return }
            guard let token = manager.sessionToken else {
                needsSignIn()
                return
            }
            cancelling = reference
            defer { cancelling = nil }
            do throws(BookingError) {
                let updated = try await service.cancel(reference: reference, sessionToken: token)
                if let index = bookings.firstIndex(where: { $0.reference == updated.reference }) {
                    bookings[index] = updated
                }
                errorMessage = nil
            } catch {
                handle(error)
            }
        }

        private func loadPage(offset: Int) async {
            guard !isLoading else { return }
            guard let token = manager.sessionToken else {
                needsSignIn()
                return
            }
            isLoading = true
            defer { isLoading = false }
            do throws(BookingError) {
                let page = try await service.bookings(sessionToken: token, limit: pageSize, offset: offset)
                if offset == 0 {
                    bookings = page.bookings
                } else {
                    let known = Set(bookings.map(\.reference))
                    bookings += page.bookings.filter { !known.contains($0.reference) }
                }
                nextOffset = page.nextOffset
                errorMessage = nil
            } catch {
                handle(error)
            }
        }

        private func handle(_ error: BookingError) {
            switch error {
            case .unauthorized, .missingSessionToken: needsSignIn()
            default: errorMessage = error.errorDescription
            }
        }

        private func needsSignIn() {
            manager.logout()
            sessionExpired = true
            errorMessage = VehicleSelectionViewModel.signInAgainMessage
        }
    }
}
