/// The seat-map tickets vertical's wire types, served under `/events`. Field names are the seed
/// app's, mixed styles included (`venue_name`, `imageUrl`, `min_price`, `created_at`), so the app
/// works by changing only its base URL. Prices in the seed's fields are whole currency units;
/// the exact amounts travel next to them in cents.
public enum Events {}
