import ConciergeCore
import Hummingbird

/// The context of stays routes that need a signed-in guest: a request without a live session
/// never reaches the handler (401 in the wrapper).
struct StaysSignedInContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    let session: SessionService.Authenticated
    let clientIP: String

    init(context: AppRequestContext) throws {
        guard let session = context.platformSession else { throw ConciergeError.sessionExpired }
        self.coreContext = context.coreContext
        self.session = session
        self.clientIP = context.clientIP
    }

    var maxUploadSize: Int { 64 * 1024 }
}
