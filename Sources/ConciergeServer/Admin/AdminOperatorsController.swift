import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird

/// `POST /admin/operators {"name", "password"}` with the admin token: adds a named `/ops`
/// operator (201), as `concierge ops add-operator` does. From the first one on, `/ops` signs in
/// by name and password only; the admin token keeps opening the admin API.
struct AdminOperatorsController {
    let operators: OperatorService
    let token: String

    struct AddRequest: Decodable {
        let name: String
        let password: String
    }

    struct OperatorBody: Encodable {
        let id: String
        let name: String
        /// ISO 8601 on the wire (`format: date-time` in openapi.yaml), as every date the API sends.
        let createdAt: String
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.group("admin")
            .add(middleware: AdminTokenMiddleware(token: token))
            .post("operators", use: add)
    }

    @Sendable func add(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(AddRequest.self, context: context)
        let added = try await operators.add(name: body.name, password: body.password, by: .adminToken)
        context.logger.info("operator \(added.name) added through the admin API")
        return try jsonResponse(
            OperatorBody(id: added.id, name: added.name, createdAt: WireDate.string(from: added.createdAt)),
            status: .created)
    }
}
