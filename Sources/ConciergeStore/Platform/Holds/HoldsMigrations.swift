extension MigrationGroup {
    /// The shared holds tables of the platform layer.
    public static let holds = MigrationGroup(module: "holds", migrations: [])
}
