extension ConciergeError {
    /// Some of the units asked for are already held or sold (or do not exist): nothing was held.
    public static func holdUnavailable(_ unitKeys: [String]) -> ConciergeError {
        ConciergeError(
            .conflict, code: "hold_unavailable",
            message:
                "Not available any more: \(unitKeys.sorted().joined(separator: ", ")). Nothing was held; choose others and try again."
        )
    }

    static func holdNotFound(_ id: String) -> ConciergeError {
        ConciergeError(.notFound, code: "hold_not_found", message: "There is no hold \(id).")
    }

    /// The hold was sold, released or has lapsed, so it cannot be extended or sold.
    static func holdNotActive(_ hold: Hold) -> ConciergeError {
        let why =
            switch hold.state {
            case .held, .expired: "its time ran out"
            case .sold: "it is already sold"
            case .released: "it was released"
            }
        return ConciergeError(
            .conflict, code: "hold_not_active",
            message: "Hold \(hold.id) cannot be changed because \(why). Hold the units again.")
    }
}
