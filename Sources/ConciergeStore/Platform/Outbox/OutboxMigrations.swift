extension MigrationGroup {
    /// The shared outbox tables of the platform layer.
    public static let outbox = MigrationGroup(module: "outbox", migrations: [])
}
