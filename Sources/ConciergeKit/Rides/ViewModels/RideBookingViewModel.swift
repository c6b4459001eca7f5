public import ConciergeModels
public import Foundation
public import Observation

extension Rides {
    /// The state behind the ride booking screen (the rides app's `RideBookingView`): pickup and
    /// destination found by a debounced place search, and a pickup time at least 48 hours ahead.
    ///
    /// Typing into ``pickupQuery`` or ``destinationQuery`` searches once the customer pauses for
    /// ``debounce`` on the injected clock; a newer keystroke cancels the pending search. Tests pass
    /// their own `Clock` and drive ``updateQuery(_:for:)``.
    ///
    /// ```swift
    /// let ride = RideBookingViewModel(places: .shared)
    /// ride.pickupQuery = "ZRH"                        // searches after 300 ms
    /// ride.select(ride.suggestions[0], for: .pickup)
    /// ride.destinationQuery = "Zürich"
    /// ride.select(ride.suggestions[0], for: .destination)
    /// ride.pickupDate = Date().addingTimeInterval(3 * 86_400)
    /// if ride.canContinue { showVehicles(ride.pickupDatetimeUTC) }
    /// ```
    @Observable @MainActor public final class RideBookingViewModel {
        /// The two place fields.
        ///
        /// ```swift
        /// ride.select(suggestion, for: .destination)
        /// ```
        public enum Field: Sendable, Hashable {
            case pickup
            case destination
        }

        /// The shortest query that is searched; shorter text clears the suggestions.
        ///
        /// ```swift
        /// RideBookingViewModel.minimumQueryLength   // 2
        /// ```
        public static let minimumQueryLength = 2

        /// How far ahead a pickup must be: 48 hours, the server's default.
        ///
        /// ```swift
        /// RideBookingViewModel.minimumAdvance   // 172_800 seconds
        /// ```
        public static let minimumAdvance: TimeInterval = 48 * 3600

        /// The suggestions of the latest search, for ``activeField``.
        ///
        /// ```swift
        /// ForEach(ride.suggestions) { Text($0.mainText) }
        /// ```
        public private(set) var suggestions: [PlaceSuggestionResponse] = []

        /// The field the ``suggestions`` belong to; `nil` when there are none.
        ///
        /// ```swift
        /// if ride.activeField == .pickup { showSuggestionsUnderPickup() }
        /// ```
        public private(set) var activeField: Field?

        /// Whether a search request is under way.
        ///
        /// ```swift
        /// if ride.isSearching { ProgressView() }
        /// ```
        public private(set) var isSearching = false

        /// The chosen pickup, from the suggestions.
        ///
        /// ```swift
        /// ride.selectedPickup?.placeId   // "gz_iata_ZRH"
        /// ```
        public private(set) var selectedPickup: PlaceSuggestionResponse?

        /// The chosen destination, from the suggestions.
        ///
        /// ```swift
        /// ride.selectedDestination?.description
        /// ```
        public private(set) var selectedDestination: PlaceSuggestionResponse?

        /// Why the last search failed, worded for the customer; `nil` after a successful one.
        ///
        /// ```swift
        /// if let message = ride.errorMessage { Text(message) }
        /// ```
        public private(set) var errorMessage: String?

        /// Set when a pickup earlier than ``earliestPickup`` was chosen and moved to it; cleared by
        /// a valid choice.
        ///
        /// ```swift
        /// if let message = ride.dateMessage { Text(message).foregroundStyle(.orange) }
        /// ```
        public private(set) var dateMessage: String?

        /// How long typing must pause before a search.
        ///
        /// ```swift
        /// ride.debounce   // .milliseconds(300)
        /// ```
        public let debounce: Duration

        /// How many place searches were sent to the server; tests count the debounced ones.
        private(set) var searchesSent = 0

        private var pickupText = ""
        private var destinationText = ""
        private var chosenDate: Date
        private var generation = 0
        private var pendingSearch: Task<Void, Never>?
        private let places: PlacesService
        private let clock: any Clock<Duration>
        private let now: () -> Date
        private let placesSession = UUID().uuidString

        /// Creates the model. `clock` times the debounce and `now` the 48-hour rule; tests pass
        /// their own.
        ///
        /// ```swift
        /// let ride = RideBookingViewModel(
        ///     places: PlacesService(client: client), clock: ContinuousClock(), debounce: .milliseconds(300))
        /// ```
        public init(
            places: PlacesService = .shared, clock: any Clock<Duration> = ContinuousClock(),
            debounce: Duration = .milliseconds(300), now: @escaping () -> Date = { Date() }
        ) {
            self.places = places
            self.clock = clock
            self.debounce = debounce
            self.now = now
            self.chosenDate = Self.earliestPickup(after: now())
        }

        /// The pickup search text. Setting it clears ``selectedPickup`` and searches after
        /// ``debounce``.
        ///
        /// ```swift
        /// TextField("Pickup", text: $ride.pickupQuery)
        /// ```
        public var pickupQuery: String {
            get { pickupText }
            set { setQuery(newValue, for: .pickup) }
        }

        /// The destination search text. Setting it clears ``selectedDestination`` and searches after
        /// ``debounce``.
        ///
        /// ```swift
        /// TextField("Destination", text: $ride.destinationQuery)
        /// ```
        public var destinationQuery: String {
            get { destinationText }
            set { setQuery(newValue, for: .destination) }
        }

        /// The query text of `field`.
        ///
        /// ```swift
        /// ride.query(for: .pickup)   // same as ride.pickupQuery
        /// ```
        public func query(for field: Field) -> String {
            field == .pickup ? pickupText : destinationText
        }

        /// Sets the text of `field` and returns once its debounced search is done, or was replaced
        /// by a newer query. The property setters do the same without waiting.
        ///
        /// ```swift
        /// await ride.updateQuery("ZRH", for: .pickup)
        /// ```
        public func updateQuery(_ text: String, for field: Field) async {
            setQuery(text, for: field)
            await pendingSearch?.value
        }

        /// Searches the current text of `field` now, without the debounce. Text shorter than
        /// ``minimumQueryLength`` clears the suggestions without a request. Results that arrive after
        /// a newer query are dropped.
        ///
        /// ```swift
        /// await ride.search(.destination)
        /// ```
        public func search(_ field: Field) async {
            let text = query(for: field).trimmingCharacters(in: .whitespacesAndNewlines)
            let started = generation
            guard text.count >= Self.minimumQueryLength else {
                suggestions = []
                activeField = nil
                return
            }
            isSearching = true
            searchesSent += 1
            defer { if started == generation { isSearching = false } }
            do throws(BookingError) {
                let found = try await places.autocomplete(text, sessionToken: placesSession)
                guard started == generation else { return }
                suggestions = found
                activeField = field
                errorMessage = nil
            } catch {
                guard started == generation else { return }
                suggestions = []
                activeField = nil
                errorMessage = error.errorDescription
            }
        }

        /// Chooses a suggestion for `field`: its description becomes the field's text (without a
        /// new search) and the suggestions close.
        ///
        /// ```swift
        /// ride.select(suggestion, for: .pickup)
        /// ```
        public func select(_ suggestion: PlaceSuggestionResponse, for field: Field) {
            cancelPendingSearch()
            switch field {
            case .pickup:
                selectedPickup = suggestion
                pickupText = suggestion.description
            case .destination:
                selectedDestination = suggestion
                destinationText = suggestion.description
            }
            suggestions = []
            activeField = nil
        }

        /// The earliest pickup that may be booked: 48 hours from now, rounded up to the next five
        /// minutes (what a time picker shows, and a little slack for the time spent booking).
        ///
        /// ```swift
        /// DatePicker("Pickup", selection: $ride.pickupDate, in: ride.earliestPickup...)
        /// ```
        public var earliestPickup: Date { Self.earliestPickup(after: now()) }

        /// The pickup time; starts at ``earliestPickup``. An earlier time is moved to
        /// ``earliestPickup`` and ``dateMessage`` says so.
        ///
        /// ```swift
        /// ride.pickupDate = Date()   // becomes ride.earliestPickup; ride.dateMessage != nil
        /// ```
        public var pickupDate: Date {
            get { chosenDate }
            set {
                let earliest = earliestPickup
                if newValue < earliest {
                    chosenDate = earliest
                    dateMessage =
                        "Rides are booked at least 48 hours ahead, so the pickup was moved to the earliest possible time."
                } else {
                    chosenDate = newValue
                    dateMessage = nil
                }
            }
        }

        /// ``pickupDate`` as the API expects it, e.g. "2027-01-15T13:00:00.000Z".
        ///
        /// ```swift
        /// try await pricing.fetchPricing(…, pickupDatetime: ride.pickupDatetimeUTC)
        /// ```
        public var pickupDatetimeUTC: String { SwissDateTime.utcISO8601(from: pickupDate) }

        /// Whether the trip may go on to vehicle selection: both places chosen, different, and the
        /// pickup still at least ``earliestPickup``.
        ///
        /// ```swift
        /// Button("Continue") { … }.disabled(!ride.canContinue)
        /// ```
        public var canContinue: Bool {
            guard let selectedPickup, let selectedDestination else { return false }
            return selectedPickup.placeId != selectedDestination.placeId && pickupDate >= earliestPickup
        }

        private func setQuery(_ text: String, for field: Field) {
            switch field {
            case .pickup:
                guard text != pickupText else { return }
                pickupText = text
                selectedPickup = nil
            case .destination:
                guard text != destinationText else { return }
                destinationText = text
                selectedDestination = nil
            }
            cancelPendingSearch()
            let scheduled = generation
            let clock = clock
            let debounce = debounce
            pendingSearch = Task { [weak self] in
                do {
                    try await clock.sleep(for: debounce)
                } catch {
                    return
                }
                guard let self, !Task.isCancelled, scheduled == self.generation else { return }
                await self.search(field)
            }
        }

        private func cancelPendingSearch() {
            generation += 1
            pendingSearch?.cancel()
            pendingSearch = nil
            isSearching = false
        }

        private static func earliestPickup(after now: Date) -> Date {
            let step: TimeInterval = 300
            let earliest = now.addingTimeInterval(minimumAdvance).timeIntervalSinceReferenceDate
            return Date(timeIntervalSinceReferenceDate: (earliest / step).rounded(.up) * step)
        }
    }
}
