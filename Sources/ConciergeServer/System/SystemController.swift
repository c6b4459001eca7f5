import ConciergeStore
import Foundation
import Hummingbird
import Logging
import NIOCore

/// Liveness, readiness and the API description.
struct SystemController {
    let migrator: Migrator
    let engineName: String
    let openAPIDocument: ByteBuffer
    let readiness: ReadinessSources
    /// Set once a shutdown began: the instance is still serving, but wants no new requests.
    let drain: ShutdownDrain?

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("health", use: health)
        router.get("ready", use: ready)
        router.get("openapi.yaml", use: openAPI)
    }

    struct Health: Encodable {
        let status: String
    }

    /// The process is up and serving; says nothing about the database.
    @Sendable func health(request: Request, context: AppRequestContext) async throws -> Response {
        try jsonResponse(Health(status: "ok"))
    }

    /// Ready to serve traffic: not shutting down, the database answers and every migration is
    /// applied (a newer schema too: migrations are expand-only, see docs/operators/upgrades.md). The answer
    /// also shows the outbox backlog and each provider's last result (see `ReadinessReport`).
    @Sendable func ready(request: Request, context: AppRequestContext) async throws -> Response {
        if drain?.isDraining == true {
            return ErrorMiddleware<AppRequestContext>.response(
                status: .serviceUnavailable,
                body: .init(error: "The server is shutting down; try another instance.", code: "not_ready"),
                retryAfter: nil)
        }
        let version: Int?
        let upToDate: Bool
        do {
            version = try await migrator.currentVersion()
            upToDate = try await migrator.isUpToDate()
        } catch {
            return unreachable(error, logger: context.logger)
        }
        guard let version, upToDate else {
            return ErrorMiddleware<AppRequestContext>.response(
                status: .serviceUnavailable,
                body: .init(
                    error: "The database schema is not up to date; run `concierge migrate`.", code: "not_ready"),
                retryAfter: 5)
        }
        do {
            return try jsonResponse(try await readiness.report(engine: engineName, schemaVersion: version))
        } catch {
            return unreachable(error, logger: context.logger)
        }
    }

    private func unreachable(_ error: any Error, logger: Logger) -> Response {
        logger.warning("readiness: database unreachable: \(error)")
        return ErrorMiddleware<AppRequestContext>.response(
            status: .serviceUnavailable, body: .init(error: "The database is not reachable.", code: "not_ready"),
            retryAfter: 5)
    }

    @Sendable func openAPI(request: Request, context: AppRequestContext) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
            body: .init(byteBuffer: openAPIDocument))
    }
}
