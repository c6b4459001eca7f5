import Hummingbird

/// `/ops`: the operator's sign-in with the admin token, and the index of the operations pages
/// (each vertical adds its own under `/ops/<page>`). Off (404) when no admin token is set.
struct OperationsPagesController {
    let web: WebFrontEnd

    func addRoutes(to router: Router<AppRequestContext>) {
        guard web.adminToken != nil else { return }
        let ops = web.pages(on: router, "ops")
        ops.get("", use: index)
        ops.get("sign-in", use: signInPage)
        ops.post("sign-in", use: signIn)
        ops.post("sign-out", use: signOut)
    }

    @Sendable func index(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        try web.requireOperator(visit)
        return web.page("ops/index", title: web.strings.text("ops", "title", visit.language), visit: visit)
    }

    @Sendable func signInPage(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let next = WebFrontEnd.localPath(request.uri.queryParameters.get("next")) ?? "/ops"
        return web.page(
            "ops/sign-in", title: web.strings.text("ops", "sign_in_title", visit.language), data: ["next": next],
            visit: visit)
    }

    @Sendable func signIn(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let next = WebFrontEnd.localPath(form["next"]) ?? "/ops"
        guard web.isAdminToken(form["token"] ?? "") else {
            return web.page(
                "ops/sign-in", title: web.strings.text("ops", "sign_in_title", visit.language),
                data: ["next": next, "tokenError": web.strings.text("ops", "token_wrong", visit.language)],
                visit: visit, status: .unauthorized)
        }
        return web.redirect(next, visit: visit, cookies: [try await web.openOperatorSession()])
    }

    @Sendable func signOut(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        _ = try await web.form(request, context: context, visit: visit)
        try await web.closeOperatorSession(request)
        return web.redirect("/", visit: visit, cookies: [web.signedOutOperatorCookie()])
    }
}
