/// Small named values the server keeps for itself (the generated dev secret).
public struct SettingsStore: Sendable {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// The value stored under `key`; when there is none, stores `makeValue()` first. Race-free:
    /// when two instances start at once, both end up with the value of whichever wrote first.
    public func value(for key: String, default makeValue: @Sendable () -> String) async throws -> String {
        let candidate = makeValue()
        try await database.query(
            "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
            [.text(key), .text(candidate)])
        let rows = try await database.query("SELECT value FROM settings WHERE key = ?", [.text(key)])
        return try rows.first?.string("value") ?? candidate
    }
}
