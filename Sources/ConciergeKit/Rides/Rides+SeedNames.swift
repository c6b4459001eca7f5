public import ConciergeModels

/// The names the rides seed guide uses, kept so its code compiles as written. New code says `Rides.X`.
public typealias BookingService = Rides.BookingService
public typealias PlacesService = Rides.PlacesService
public typealias PricingService = Rides.PricingService
public typealias VeramoAuthService = Rides.VeramoAuthService
public typealias BookingError = Rides.BookingError
public typealias BookingsViewModel = Rides.BookingsViewModel
public typealias RideBookingViewModel = Rides.RideBookingViewModel
public typealias SMSLoginViewModel = Rides.SMSLoginViewModel
public typealias VehicleSelectionViewModel = Rides.VehicleSelectionViewModel
