public import ConciergeCore
import ConciergeModels
public import Foundation
public import HTTPTypes
import Hummingbird
import NIOCore

/// What a failed request means to a client — status, machine code, a message a person can act
/// on, the fields to correct and extra facts — before a vertical gives it the body shape its
/// contract names. Built once per error (`ErrorMiddleware.describe`); `docs/api/errors.md` shows it
/// in every envelope.
public struct ErrorDescription: Sendable, Equatable {
    public let status: HTTPResponse.Status
    public let code: String
    public var message: String
    /// Seconds, sent as `Retry-After` (429 and 503).
    public let retryAfter: Int?
    /// One message per request field, keyed by its path (`checkIn`, `specificSeatIds[0]`).
    public let fields: [String: String]
    /// Extra facts beside the message, written under their own names (`unavailableSeatIds`).
    public let details: [String: ErrorDetail]

    public init(
        status: HTTPResponse.Status, code: String, message: String, retryAfter: Int? = nil,
        fields: [String: String] = [:], details: [String: ErrorDetail] = [:]
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.fields = fields
        self.details = details
    }
}

/// A vertical's error envelope: only the shape differs between verticals, never what is said.
/// Rides, events, commute and the platform answer `{"success": false, "error", "code"}`; stays
/// wraps errors in its `APIResponse`.
public protocol ErrorRenderer: Sendable {
    func body(for error: ErrorDescription) throws -> Data
    /// The sentence a 401 `session_expired` ends with: how *this* vertical's clients sign in.
    var signIn: String? { get }
}

extension ErrorRenderer {
    public var signIn: String? { nil }

    func response(for error: ErrorDescription) -> Response {
        var error = error
        if error.status == .unauthorized, error.code == "session_expired", let signIn {
            error.message += " " + signIn
        }
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfter = error.retryAfter { headers[.retryAfter] = String(retryAfter) }
        let data = (try? body(for: error)) ?? Data()
        return Response(status: error.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// `{"success": false, "error": "…", "code": "…"}`: the rides contract's error body, also the
/// platform's own routes', the events contract's and commute's. Field errors go under
/// `fields`, extra facts beside `code` under their own names (events' `unavailableSeatIds`).
public struct SuccessFlagErrorRenderer: ErrorRenderer {
    public let signIn: String?

    public init(signIn: String? = nil) {
        self.signIn = signIn
    }

    public func body(for error: ErrorDescription) throws -> Data {
        try Wire.encoder.encode(
            ErrorPayload(
                fixed: [
                    "success": .flag(false), "error": .detail(.text(error.message)), "code": .detail(.text(error.code)),
                ], fields: error.fields, details: error.details))
    }
}

/// The keys of an error body: its envelope's own, `fields` when there are any, and each extra
/// fact under its name. An extra fact never replaces an envelope key.
struct ErrorPayload: Encodable {
    enum Value: Encodable {
        case flag(Bool)
        case number(Int)
        case detail(ErrorDetail)
        case fields([String: String])
        case null
        case payload(ErrorPayload)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .flag(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .detail(.text(let value)): try container.encode(value)
            case .detail(.texts(let value)): try container.encode(value)
            case .detail(.number(let value)): try container.encode(value)
            case .fields(let value): try container.encode(value)
            case .null: try container.encodeNil()
            case .payload(let value): try container.encode(value)
            }
        }
    }

    private let entries: [String: Value]

    init(fixed: [String: Value], fields: [String: String], details: [String: ErrorDetail]) {
        var entries = details.mapValues(Value.detail)
        if !fields.isEmpty { entries["fields"] = .fields(fields) }
        entries.merge(fixed) { _, envelope in envelope }
        self.entries = entries
    }

    /// Whether there is anything beyond the envelope's own keys.
    static func hasExtras(_ error: ErrorDescription) -> Bool { !error.fields.isEmpty || !error.details.isEmpty }

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in entries { try container.encode(value, forKey: Key(stringValue: key)) }
    }
}

/// Which renderer answers a path: the vertical whose prefix it starts with, else the platform's.
/// Chosen by path rather than by route group so that 404 and 405 — which no route group sees —
/// are shaped like the vertical's other errors too.
public struct ErrorRenderers: Sendable {
    private let fallback: any ErrorRenderer
    private let byPrefix: [(prefix: String, renderer: any ErrorRenderer)]

    public init(
        fallback: any ErrorRenderer = SuccessFlagErrorRenderer(signIn: PlatformSignIn.sentence),
        byPrefix: [String: any ErrorRenderer] = [:]
    ) {
        self.fallback = fallback
        // Longest prefix first, so `/stays/admin` can differ from `/stays`.
        self.byPrefix = byPrefix.map { (prefix: "/" + $0.key.trimmingSlashes, renderer: $0.value) }
            .sorted { $0.prefix.count > $1.prefix.count }
    }

    public func renderer(for path: String) -> any ErrorRenderer {
        for entry in byPrefix where path == entry.prefix || path.hasPrefix(entry.prefix + "/") {
            return entry.renderer
        }
        return fallback
    }
}

/// How the platform's own routes (`/account/…`) sign in.
public enum PlatformSignIn {
    public static let sentence = "Sign in again at /account/sign-in."
}

extension String {
    fileprivate var trimmingSlashes: String {
        String(drop { $0 == "/" }.reversed().drop { $0 == "/" }.reversed())
    }
}
