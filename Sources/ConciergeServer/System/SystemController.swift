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

    /// Ready to serve traffic: the database answers and every migration is applied. The answer
    /// also shows the outbox backlog and each provider's last result (see `ReadinessReport`).
    @Sendable func ready(request: Request, context: AppRequestContext) async throws -> Response {
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
