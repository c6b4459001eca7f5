import ArgumentParser
import ConciergeBenchmarks
import ConciergeCore
import ConciergeModels
import ConciergeProviders
import ConciergeStore
import Foundation
import Logging

/// `concierge bench commute`: the planner against free-flow and typical-traffic baselines over
/// simulated weeks, and the scheduler's cost per tick with many trips on SQLite.
struct CommuteBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commute", abstract: "Leave-time planner accuracy and scheduler cost per tick.")

    @Option(help: "Simulated commuters.") var commuters = 200
    @Option(help: "Simulated weeks (five weekdays each).") var weeks = 12
    @Option(help: "Trips for the scheduler measurement (0 skips it).") var trips = 100_000
    @Flag(help: "Print JSON.") var json = false

    struct Report: Encodable {
        let planner: CommuteBenchmark.Outcome
        let freeFlow: CommuteBenchmark.Outcome
        let typicalTraffic: CommuteBenchmark.Outcome
        let commuters: Int
        let days: Int
        let plannerMillisecondsPerPlan: Double
        let scheduler: SchedulerCost?
    }

    struct SchedulerCost: Encodable {
        let trips: Int
        /// A tick with nothing due: the lease and one index probe.
        let idleTickMilliseconds: Double
        /// A tick that re-plans a full batch of due trips.
        let fullTickMilliseconds: Double
        let batchSize: Int
        /// How many trips one instance can re-plan per minute at that rate.
        let tripsPerMinute: Double
    }

    func run() async throws {
        let result = try await CommuteBenchmark(commuters: commuters, weeks: weeks).run()
        let scheduler = trips > 0 ? try await Self.schedulerCost(trips: trips) : nil
        let report = Report(
            planner: result.planner, freeFlow: result.freeFlow, typicalTraffic: result.typicalTraffic,
            commuters: result.commuters, days: result.days,
            plannerMillisecondsPerPlan: result.plannerMillisecondsPerPlan,
            scheduler: scheduler)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
            return
        }
        print("\(result.commuters) commuters × \(result.days) weekdays")
        for (name, outcome) in [
            ("planner", result.planner), ("free flow", result.freeFlow), ("typical traffic", result.typicalTraffic),
        ] {
            print(
                "\(name.padding(toLength: 16, withPad: " ", startingAt: 0)) on time \(String(format: "%.1f", outcome.onTimeShare * 100)) %"
                    + "   mean early \(outcome.meanEarlyMinutes) min   worst late \(outcome.worstLateMinutes) min")
        }
        let met =
            result.planner.onTimeShare >= 0.9 && result.planner.meanEarlyMinutes <= 12
            && result.planner.onTimeShare > result.freeFlow.onTimeShare
            && result.planner.onTimeShare > result.typicalTraffic.onTimeShare
        print("targets (on time ≥ 90 %, above both baselines, mean early ≤ 12 min): \(met ? "met" : "MISSED")")
        if let scheduler {
            print(
                "scheduler with \(scheduler.trips) trips: idle tick \(String(format: "%.1f", scheduler.idleTickMilliseconds)) ms, "
                    + "a tick re-planning \(scheduler.batchSize) trips \(String(format: "%.0f", scheduler.fullTickMilliseconds)) ms "
                    + "(\(String(format: "%.0f", scheduler.tripsPerMinute)) trips per minute)")
        }
    }

    /// Fills a temporary SQLite database with `trips` trips, then times an idle tick and a tick
    /// that re-plans a full batch.
    static func schedulerCost(trips count: Int) async throws -> SchedulerCost {
        var logger = Logger(label: "bench.commute")
        logger.logLevel = .critical
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("commute-bench-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try await SQLiteEngine.open(path: path, logger: logger)
        _ = try await Migrator(database: database).migrate()
        let store = SQLCommuteStore(database: database)
        // Monday 2027-01-04 05:00 Zurich; every trip is checked next between 06:00 and 08:00.
        let start = Date(timeIntervalSince1970: 1_799_035_200)
        let clock = ManualTimeSource(start)
        for first in stride(from: 0, to: count, by: 1000) {
            try await database.transaction { db in
                for index in first..<min(first + 1000, count) {
                    let trip = CommuteTrip(
                        id: "trp_\(index)", name: "Trip \(index)",
                        origin: CommutePlace(latitude: 47 + Double(index % 500) * 0.001, longitude: 8.5, label: "A"),
                        destination: CommutePlace(
                            latitude: 47.2, longitude: 8.6 + Double(index % 700) * 0.001, label: "B"),
                        arrivalTime: String(format: "%02d:%02d", 7 + index % 3, (index * 7) % 60),
                        repeatDays: ["mon", "tue", "wed", "thu", "fri"], timeZone: "Europe/Zurich",
                        createdAt: WireDate.string(from: start))
                    let body = String(decoding: try JSONEncoder().encode(trip), as: UTF8.self)
                    try await db.query(
                        "INSERT INTO commute_trips (id, account_id, body, created_at, updated_at, next_check_at) VALUES (?, ?, ?, ?, ?, ?)",
                        [
                            .text(trip.id), .text("acc_\(index)"), .text(body), SQLValue(start), SQLValue(start),
                            SQLValue(start.addingTimeInterval(3600 + Double(index % 7200))),
                        ])
                }
            }
        }
        let lookup = TravelTimeLookup(
            primary: nil, heuristic: OfflineTravelTimes(timeZone: OfflineTravelTimes.solarZone), clock: clock)
        let service = CommuteService(
            store: store, planner: LeavePlanner(travel: lookup, weather: nil, clock: clock), calendar: TripCalendar(),
            clock: clock, random: SystemRandomSource())
        let batch = 2000
        let scheduler = CommuteScheduler(
            service: service, store: store, clock: clock, random: SystemRandomSource(), holder: "bench",
            batchSize: batch)
        var started = Date()
        _ = try await scheduler.tick()
        let idle = Date().timeIntervalSince(started) * 1000
        clock.set(start.addingTimeInterval(3 * 3600))
        started = Date()
        let report = try await scheduler.tick()
        let full = Date().timeIntervalSince(started) * 1000
        try await database.close()
        return SchedulerCost(
            trips: count, idleTickMilliseconds: idle, fullTickMilliseconds: full, batchSize: report.checked,
            tripsPerMinute: Double(report.checked) / (full / 1000) * 60)
    }
}
