extension MigrationGroup {
    /// The shared accounts tables of the platform layer.
    public static let accounts = MigrationGroup(module: "accounts", migrations: [])
}
