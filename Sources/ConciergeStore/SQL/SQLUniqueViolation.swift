/// A statement broke a unique constraint. Engines report it in their own way; code that expects a
/// taken value (a reference drawn at random) catches this one type on both.
public struct SQLUniqueViolation: Error, Sendable {
    /// The table whose constraint was broken, when the engine says.
    public let table: String?

    public init(table: String?) {
        self.table = table
    }
}
