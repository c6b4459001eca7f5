extension MigrationGroup {
    /// The shared orders tables of the platform layer.
    public static let orders = MigrationGroup(module: "orders", migrations: [])
}
