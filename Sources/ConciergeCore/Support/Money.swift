/// Formatting of amounts held as integer cents (Rappen).
public enum Money {
    /// `9500` → `"CHF 95.00"`, `123450` → `"CHF 1234.50"`: two decimals, a dot, no thousands
    /// separator (the shape the pricing contract shows).
    public static func formatCHF(_ cents: Int) -> String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        let francs = magnitude / 100
        let rappen = magnitude % 100
        return "CHF \(sign)\(francs).\(rappen < 10 ? "0" : "")\(rappen)"
    }
}
