/// The stays (hotel rooms) vertical's wire types, named as the seed app names them:
/// `Stays.Profile`, `Stays.RoomHotel`, `Stays.Reservation`, `Stays.APIResponse<T>`, …
/// Shared by the server and ConciergeKit, so the contract cannot drift between them.
public enum Stays {}
