public import ConciergeCore
public import Hummingbird
import NIOCore

/// The request context of every route: the client's address, and the session once the session
/// middleware has resolved one.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer address of the connection (a proxy's, when behind one).
    public let peerAddress: String?
    /// Who is asking, for rate limits: the peer, or X-Forwarded-For when the proxy is trusted.
    public var clientIP: String
    /// Set by `SessionMiddleware` on rides routes that need a signed-in customer.
    public var session: SignInService.Authenticated?
    /// Set by `PlatformSessionMiddleware` on platform routes: a session of any kind (a rides
    /// bearer token, a JWT access token).
    public var platformSession: SessionService.Authenticated?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.peerAddress = source.channel.remoteAddress?.ipAddress
        self.clientIP = peerAddress ?? "unknown"
        self.session = nil
        self.platformSession = nil
    }

    /// Bodies above 64 KB are refused with 413 before they are read into memory.
    public var maxUploadSize: Int { 64 * 1024 }
}

/// The context of routes that require a session: handlers get a non-optional customer, and a
/// request without a valid session never reaches them.
public struct SignedInContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let session: SignInService.Authenticated
    public let clientIP: String

    public init(context: AppRequestContext) throws {
        guard let session = context.session else { throw ConciergeError.sessionExpired }
        self.coreContext = context.coreContext
        self.session = session
        self.clientIP = context.clientIP
    }

    public var maxUploadSize: Int { 64 * 1024 }
    public var customer: Customer { session.customer }
}

/// The context of platform routes that require a session of any kind: handlers get the account
/// id, and a request without a live session never reaches them.
public struct AccountContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let session: SessionService.Authenticated
    public let clientIP: String

    public init(context: AppRequestContext) throws {
        guard let session = context.platformSession else { throw ConciergeError.sessionExpired }
        self.coreContext = context.coreContext
        self.session = session
        self.clientIP = context.clientIP
    }

    public var maxUploadSize: Int { 64 * 1024 }
    public var accountID: String { session.accountID }
}
