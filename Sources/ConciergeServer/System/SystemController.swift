import ConciergeStore
import Foundation
import Hummingbird
import NIOCore

/// Liveness, readiness and the API description.
struct SystemController {
    let migrator: Migrator
    let engineName: String
    let openAPIDocument: ByteBuffer

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("health", use: health)
        router.get("ready", use: ready)
        router.get("openapi.yaml", use: openAPI)
    }

    struct Health: Encodable {
        let status: String
    }

    struct Readiness: Encodable {
        let status: String
        let database: String
        let schemaVersion: Int
    }

    /// The process is up and serving; says nothing about the database.
    @Sendable func health(request: Request, context: AppRequestContext) async throws -> Response {
        try jsonResponse(Health(status: "ok"))
    }

    /// Ready to serve traffic: the database answers and every migration is applied.
    @Sendable func ready(request: Request, context: AppRequestContext) async throws -> Response {
        let version: Int?
        let upToDate: Bool
        do {
            version = try await migrator.currentVersion()
            upToDate = try await migrator.isUpToDate()
        } catch {
            context.logger.warning("readiness: database unreachable: \(error)")
            return ErrorMiddleware<AppRequestContext>.response(
                status: .serviceUnavailable,
                body: .init(error: "The database is not reachable.", code: "not_ready"), retryAfter: 5)
        }
        guard let version, upToDate else {
            return ErrorMiddleware<AppRequestContext>.response(
                status: .serviceUnavailable,
                body: .init(
                    error: "The database schema is not up to date; run `concierge migrate`.", code: "not_ready"),
                retryAfter: 5)
        }
        return try jsonResponse(Readiness(status: "ready", database: engineName, schemaVersion: version))
    }

    @Sendable func openAPI(request: Request, context: AppRequestContext) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
            body: .init(byteBuffer: openAPIDocument))
    }
}
