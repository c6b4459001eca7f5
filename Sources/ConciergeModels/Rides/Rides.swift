/// The rides vertical's wire types: `Rides.BookingRequest`, `Rides.PricingResponse`, … Each
/// vertical has its own namespace, so events' and stays' types can reuse natural names.
public enum Rides {}
