import ConciergeCore
import Logging
import ServiceLifecycle

/// The background work of bookings: expires unpaid bookings whose quote lapsed (cancelling their
/// payments), forgets day-old idempotency keys and delivers queued notifications. Runs at start, so a server that was down
/// catches up, and then every `interval` until shutdown.
struct BookingMaintenanceService: Service {
    let bookings: BookingService
    let deliverer: NotificationDeliverer
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
        do {
            let expired = try await bookings.expireLapsedBookings()
            if expired > 0 { logger.info("expired \(expired) unpaid bookings") }
        } catch {
            logger.warning("booking expiry failed: \(error)")
        }
        do {
            try await bookings.pruneIdempotencyKeys()
        } catch {
            logger.warning("pruning idempotency keys failed: \(error)")
        }
        do {
            try await deliverer.deliverDue()
        } catch {
            logger.warning("notification delivery failed: \(error)")
        }
    }
}

extension BookingMaintenanceService: CustomStringConvertible {
    // ServiceLifecycle logs its services at start; the default reflection would print the whole
    // gazetteer and tariff, and building that string cost half a second of every start.
    var description: String { "BookingMaintenanceService(every \(interval))" }
}
