import Logging
import ServiceLifecycle

/// The background worker: runs every registered job at start, so a server that was down catches
/// up, and then every `interval` until shutdown. A failing job is logged and does not stop the
/// others.
struct MaintenanceService: Service {
    let jobs: [MaintenanceJob]
    let interval: Duration
    let logger: Logger

    func run() async throws {
        // Shutdown ends the pause early; that is a normal end, not a failure of the service.
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await tick()
                try await Task.sleep(for: interval)
            }
        }
    }

    func tick() async {
        for job in jobs {
            do {
                try await job.run()
            } catch {
                logger.warning("\(job.name) failed: \(error)")
            }
        }
    }
}

extension MaintenanceService: CustomStringConvertible {
    // ServiceLifecycle logs its services at start; the default reflection would print every job's
    // captured services (the whole gazetteer and tariff), which cost half a second of every start.
    var description: String { "MaintenanceService(\(jobs.map(\.name).joined(separator: ", ")), every \(interval))" }
}
