import ConciergeCore
import Hummingbird

/// `/ops`: the operator's sign-in — by name and password once a named operator exists, with the
/// admin token until then — and the index of the operations pages (each vertical adds its own
/// under `/ops/<page>`). Off (404) when no admin token is set.
struct OperationsPagesController {
    let web: WebFrontEnd

    func addRoutes(to router: Router<AppRequestContext>) {
        guard web.adminToken != nil else { return }
        let ops = web.pages(on: router, "ops")
        ops.get("", use: index)
        ops.get("sign-in", use: signInPage)
        ops.post("sign-in", use: signIn)
        ops.post("sign-out", use: signOut)
        ops.get("audit", use: OperationsAuditPage(web: web).page)
    }

    @Sendable func index(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        try web.requireOperator(visit)
        return web.page("ops/index", title: web.strings.text("ops", "title", visit.language), visit: visit)
    }

    @Sendable func signInPage(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let next = WebFrontEnd.localPath(request.uri.queryParameters.get("next")) ?? "/ops"
        return try await signInForm(visit, data: ["next": next])
    }

    @Sendable func signIn(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let next = WebFrontEnd.localPath(form["next"]) ?? "/ops"
        func word(_ key: String) -> String { web.strings.text("ops", key, visit.language) }
        let identity: OperatorIdentity
        if try await web.operators.adminTokenSignsIn() {
            guard web.isAdminToken(form["token"] ?? "") else {
                return try await signInForm(
                    visit, data: ["next": next, "signInError": word("token_wrong")], status: .unauthorized)
            }
            identity = .adminToken
        } else {
            // Once a named operator exists the admin token opens nothing here: the form asks for a
            // name and password, and a posted token is refused like a wrong password.
            let name = String((form["name"] ?? "").prefix(100))
            do {
                let found = try await web.operators.signIn(
                    name: name, password: form["password"] ?? "", clientIP: context.clientIP)
                identity = OperatorIdentity(accountID: found.accountID, name: found.name)
            } catch let refusal as ConciergeError where refusal.code == ConciergeError.invalidCredentials.code {
                return try await signInForm(
                    visit, data: ["next": next, "name": name, "signInError": word("credentials_wrong")],
                    status: .unauthorized)
            } catch let refusal as ConciergeError {
                guard case .tooManyRequests(let seconds) = refusal.category else { throw refusal }
                var response = try await signInForm(
                    visit, data: ["next": next, "name": name, "signInError": word("sign_in_throttled")],
                    status: .tooManyRequests)
                if let seconds { response.headers[.retryAfter] = String(seconds) }
                return response
            }
        }
        return web.redirect(next, visit: visit, cookies: [try await web.openOperatorSession(for: identity)])
    }

    @Sendable func signOut(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        _ = try await web.form(request, context: context, visit: visit)
        try await web.closeOperatorSession(request, visit: visit)
        return web.redirect("/", visit: visit, cookies: [web.signedOutOperatorCookie()])
    }

    /// The token form before the first named operator, the name and password form after.
    private func signInForm(_ visit: WebVisit, data: [String: Any], status: HTTPResponse.Status = .ok)
        async throws -> Response
    {
        var data = data
        data["named"] = try await !web.operators.adminTokenSignsIn()
        return web.page(
            "ops/sign-in", title: web.strings.text("ops", "sign_in_title", visit.language), data: data, visit: visit,
            status: status)
    }
}
