/// Amounts in cents as people read them, and as the seed's whole-unit fields carry them.
public enum EventsMoney {
    /// `CHF 89.00`.
    public static func format(_ cents: Int, _ currency: String) -> String {
        let sign = cents < 0 ? "-" : ""
        let value = abs(cents)
        return "\(currency) \(sign)\(value / 100).\(value % 100 < 10 ? "0" : "")\(value % 100)"
    }

    /// Whole units for the seed's `Int` fields (categories are whole units; a stray cent rounds down).
    public static func units(_ cents: Int) -> Int { cents / 100 }
}
