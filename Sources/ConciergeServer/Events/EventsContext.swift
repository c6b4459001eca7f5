import ConciergeCore
import Hummingbird

/// The context of events routes that need a signed-in buyer: a live session opened by a JWT
/// (the events contract's token). A rides opaque token is another vertical's shape: 401.
struct EventsSignedInContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    let session: SessionService.Authenticated
    let clientIP: String

    init(context: AppRequestContext) throws {
        guard let session = context.platformSession, session.session.kind != .bearer else {
            throw ConciergeError.sessionExpired
        }
        self.coreContext = context.coreContext
        self.session = session
        self.clientIP = context.clientIP
    }

    var maxUploadSize: Int { 64 * 1024 }
    var accountID: String { session.accountID }
}

/// Resolves a Bearer token when one is sent, and lets the request through anonymous when none
/// is or it is not valid (public routes that show a signed-in buyer a little more).
struct OptionalEventsSessionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let sessions: SessionService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        if let token = SessionMiddleware.bearerToken(request.headers[.authorization]),
            let session = try? await sessions.authenticate(token: token), session.session.kind != .bearer
        {
            context.platformSession = session
        }
        return try await next(request, context)
    }
}
