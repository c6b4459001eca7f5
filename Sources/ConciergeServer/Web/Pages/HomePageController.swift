import Hummingbird

/// `/`: what Concierge offers, sign-in, and the four verticals.
struct HomePageController {
    let web: WebFrontEnd

    func addRoutes(to router: Router<AppRequestContext>) {
        web.pages(on: router).get("/", use: home)
    }

    @Sendable func home(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        return web.page("home", title: web.strings.text("common", "home_title", visit.language), visit: visit)
    }
}
