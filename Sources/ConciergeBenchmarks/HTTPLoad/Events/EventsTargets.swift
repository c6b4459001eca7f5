extension HTTPBenchmarkReport {
    /// Issue 12's targets: orders/s and p99 of the seats scenario (set for SQLite, like the
    /// booking targets), no seat sold twice on any engine, and the seat map's p99.
    static func eventsTargets(_ results: [String: LoadResult], seatSales: SeatSalesAudit?, sqlite: Bool) -> [Target] {
        var targets: [Target] = []
        if sqlite, let seats = results["seats"] {
            targets.append(
                .init(
                    name: "seats orders/s", goal: "≥ 1000", measured: f0(seats.perSecond),
                    met: seats.perSecond >= 1000))
            let p99 = seats.latencyMilliseconds.p99
            targets.append(.init(name: "seats p99", goal: "≤ 100 ms", measured: "\(f1(p99)) ms", met: p99 <= 100))
        }
        if let seatSales {
            targets.append(
                .init(
                    name: "sold twice", goal: "0 (and orders = map)",
                    measured: "\(seatSales.seatsSoldTwice), \(seatSales.mismatches.count) mismatches",
                    met: seatSales.clean))
        }
        if let map = results["seat-map"] {
            let p99 = map.latencyMilliseconds.p99
            targets.append(.init(name: "seat-map p99", goal: "≤ 20 ms", measured: "\(f1(p99)) ms", met: p99 <= 20))
        }
        return targets
    }
}
