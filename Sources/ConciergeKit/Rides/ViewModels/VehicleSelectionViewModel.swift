public import ConciergeModels
public import Foundation
public import Observation

extension Rides {
    /// The state behind the vehicle choice and booking screen (the rides app's
    /// `VehicleSelectionView`): the prices of each class for the trip, the chosen class, passengers
    /// and flight number, and booking, which yields the checkout page to pay on.
    ///
    /// An expired or missing session does not book: the manager is signed out, ``sessionExpired``
    /// is set and ``errorMessage`` asks the customer to sign in again.
    ///
    /// ```swift
    /// let vehicles = VehicleSelectionViewModel(
    ///     pickup: ride.selectedPickup!, destination: ride.selectedDestination!,
    ///     pickupDatetime: ride.pickupDatetimeUTC)
    /// await vehicles.loadPrices()                 // vehicles.pricing?.prices.business.priceFormatted
    /// vehicles.selectedClass = "first"
    /// vehicles.passengers = 2
    /// await vehicles.book()
    /// if let url = vehicles.checkoutURL { openSafari(url) }
    /// ```
    @Observable @MainActor public final class VehicleSelectionViewModel {
        /// The message shown when booking needs a new sign-in.
        ///
        /// ```swift
        /// vehicles.errorMessage == VehicleSelectionViewModel.signInAgainMessage
        /// ```
        public static let signInAgainMessage = BookingError.unauthorized.errorDescription ?? "Please sign in again."

        /// The pickup place.
        ///
        /// ```swift
        /// Text(vehicles.pickup.mainText)
        /// ```
        public let pickup: PlaceSuggestionResponse

        /// The destination place.
        ///
        /// ```swift
        /// Text(vehicles.destination.mainText)
        /// ```
        public let destination: PlaceSuggestionResponse

        /// The pickup time, ISO 8601 UTC ("2027-01-15T13:00:00.000Z").
        ///
        /// ```swift
        /// SwissDateTime.parse(vehicles.pickupDatetime)
        /// ```
        public let pickupDatetime: String

        /// The prices per class once ``loadPrices()`` succeeded.
        ///
        /// ```swift
        /// Text(vehicles.pricing?.prices.first.priceFormatted ?? "…")
        /// ```
        public private(set) var pricing: PricingResponse?

        /// The chosen class: "business" (default), "first" or "xl"; display names such as
        /// "First Class" work too.
        ///
        /// ```swift
        /// vehicles.selectedClass = "xl"
        /// ```
        public var selectedClass = "business"

        /// How many people ride; at least 1.
        ///
        /// ```swift
        /// Stepper("\(vehicles.passengers) passengers", value: $vehicles.passengers, in: 1...vehicles.maxPassengers)
        /// ```
        public var passengers = 1

        /// The flight number for an airport pickup, e.g. "LX123"; empty when there is none.
        ///
        /// ```swift
        /// TextField("Flight", text: $vehicles.flightNumber)
        /// ```
        public var flightNumber = ""

        /// Whether ``loadPrices()`` is under way.
        ///
        /// ```swift
        /// if vehicles.isLoadingPrices { ProgressView() }
        /// ```
        public private(set) var isLoadingPrices = false

        /// Whether ``book()`` is under way.
        ///
        /// ```swift
        /// Button("Book") { … }.disabled(vehicles.isBooking)
        /// ```
        public private(set) var isBooking = false

        /// Where the customer pays, once booked.
        ///
        /// ```swift
        /// if let url = vehicles.checkoutURL { openURL(url) }   // e.g. in an SFSafariViewController
        /// ```
        public private(set) var checkoutURL: URL?

        /// The booking's reference once booked, e.g. "VRM-123456".
        ///
        /// ```swift
        /// Text("Reference \(vehicles.bookingReference ?? "")")
        /// ```
        public private(set) var bookingReference: String?

        /// Set when booking found the session expired or missing; show the sign-in screen.
        ///
        /// ```swift
        /// if vehicles.sessionExpired { showLogin() }
        /// ```
        public private(set) var sessionExpired = false

        /// What went wrong last, worded for the customer; `nil` after a step succeeds.
        ///
        /// ```swift
        /// if let message = vehicles.errorMessage { Text(message) }
        /// ```
        public private(set) var errorMessage: String?

        private let pricingService: PricingService
        private let bookingService: BookingService
        private let manager: AuthenticationManager

        /// Creates the model for one trip.
        ///
        /// ```swift
        /// let vehicles = VehicleSelectionViewModel(
        ///     pickup: airport, destination: city, pickupDatetime: "2027-01-15T13:00:00.000Z",
        ///     pricing: PricingService(client: client), booking: BookingService(client: client),
        ///     manager: AuthenticationManager(store: InMemorySessionStore()))
        /// ```
        public init(
            pickup: PlaceSuggestionResponse, destination: PlaceSuggestionResponse, pickupDatetime: String,
            pricing: PricingService = .shared, booking: BookingService = .shared,
            manager: AuthenticationManager = .shared
        ) {
            self.pickup = pickup
            self.destination = destination
            self.pickupDatetime = pickupDatetime
            self.pricingService = pricing
            self.bookingService = booking
            self.manager = manager
        }

        /// The price of ``selectedClass``, once prices are loaded.
        ///
        /// ```swift
        /// Text(vehicles.selectedPrice?.priceFormatted ?? "")
        /// ```
        public var selectedPrice: VehiclePrice? {
            guard let prices = pricing?.prices else { return nil }
            switch selectedClass.toVehicleClass {
            case "business": return prices.business
            case "first": return prices.first
            case "xl": return prices.xl
            default: return nil
            }
        }

        /// The most passengers the selected class seats (1 until prices are loaded).
        ///
        /// ```swift
        /// vehicles.maxPassengers   // 3 for business
        /// ```
        public var maxPassengers: Int { max(1, selectedPrice?.maxPassengers ?? 1) }

        /// Whether the booking button may be pressed.
        ///
        /// ```swift
        /// Button("Book and pay") { Task { await vehicles.book() } }.disabled(!vehicles.canBook)
        /// ```
        public var canBook: Bool {
            selectedPrice != nil && !isBooking && !isLoadingPrices && (1...maxPassengers).contains(passengers)
        }

        /// Loads the prices of every class for the trip into ``pricing``.
        ///
        /// ```swift
        /// await vehicles.loadPrices()
        /// ```
        public func loadPrices() async {
            guard !isLoadingPrices else { return }
            isLoadingPrices = true
            defer { isLoadingPrices = false }
            do throws(BookingError) {
                pricing = try await pricingService.fetchPricing(
                    originPlaceId: pickup.placeId, destinationPlaceId: destination.placeId,
                    pickupDatetime: pickupDatetime)
                errorMessage = nil
            } catch {
                errorMessage = error.errorDescription
            }
        }

        /// Books the trip in ``selectedClass`` with the manager's session; on success sets
        /// ``checkoutURL`` and ``bookingReference``. An expired session signs the manager out and
        /// sets ``sessionExpired``; without a session no request is made.
        ///
        /// ```swift
        /// await vehicles.book()
        /// ```
        public func book() async {
            guard !isBooking else { return }
            guard let token = manager.sessionToken else {
                needsSignIn()
                return
            }
            isBooking = true
            defer { isBooking = false }
            errorMessage = nil
            let flight = flightNumber.trimmingCharacters(in: .whitespacesAndNewlines)
            do throws(BookingError) {
                let response = try await bookingService.createBooking(
                    pickupPlaceId: pickup.placeId, pickupDescription: pickup.description,
                    destinationPlaceId: destination.placeId, destinationDescription: destination.description,
                    dateTime: pickupDatetime, passengers: passengers, vehicleClass: selectedClass,
                    flightNumber: flight.isEmpty ? nil : flight, sessionToken: token)
                guard response.success else {
                    errorMessage = response.error ?? "The ride could not be booked. Please try again."
                    return
                }
                bookingReference = response.quoteReference
                checkoutURL = response.checkoutUrl.flatMap(URL.init(string:))
            } catch {
                switch error {
                case .unauthorized, .missingSessionToken: needsSignIn()
                default: errorMessage = error.errorDescription
                }
            }
        }

        private func needsSignIn() {
            manager.logout()
            sessionExpired = true
            errorMessage = Self.signInAgainMessage
        }
    }
}
