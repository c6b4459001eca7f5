import ConciergeCore
import Foundation
import Logging

/// Which Google API a failure came from; it decides the error codes people and clients see.
enum GoogleMapsService: Sendable {
    case places
    case routes

    /// For logs.
    var name: String {
        switch self {
        case .places: "Google Places"
        case .routes: "Google Routes"
        }
    }

    var failedCode: String {
        switch self {
        case .places: "places_failed"
        case .routes: "route_failed"
        }
    }

    var unavailableCode: String {
        switch self {
        case .places: "places_unavailable"
        case .routes: "routing_unavailable"
        }
    }

    /// What could not be done, as the start of a sentence a person reads.
    var whatFailed: String {
        switch self {
        case .places: "We could not search for places"
        case .routes: "We could not calculate the driving route"
        }
    }
}

/// Google's error document (`google.rpc.Status` in AIP-193 form):
/// `{"error": {"code": 403, "message": "…", "status": "PERMISSION_DENIED", "details": [...]}}`.
///
/// `message` is deliberately not decoded: Google writes it for developers and it can quote the
/// request, including the API key ("API key not valid…", restriction errors naming the key), so
/// it is never shown or logged. Everything is optional because a proxy in front of Google may
/// answer with HTML or nothing, and that must still map to a sensible error.
struct GoogleAPIError: Decodable, Sendable {
    struct Status: Decodable, Sendable {
        let code: Int?
        let status: String?
        let details: [Detail]?
    }

    /// The `google.rpc.ErrorInfo` entries of `details`; only the machine-readable reason is read.
    struct Detail: Decodable, Sendable {
        let reason: String?
    }

    let error: Status?

    /// Never throws: an undecodable body is an error without a status.
    static func decode(_ body: Data) -> Status? {
        (try? JSONDecoder().decode(GoogleAPIError.self, from: body))?.error
    }
}

/// The one place that turns Google Maps Platform failures into `ConciergeError`s, for both
/// Places and Routes.
///
/// | Google answer | error |
/// |---|---|
/// | 401, 403 `PERMISSION_DENIED`, any `API_KEY_*` reason (a bad key is a 400) | `.upstreamFailed` `places_failed` / `route_failed`, "the maps provider is misconfigured" |
/// | 429 `RESOURCE_EXHAUSTED`, 5xx, time-out, unreachable | `.unavailable` `places_unavailable` / `routing_unavailable` |
/// | any other status, or a 2xx we cannot read | `.upstreamFailed` `places_failed` / `route_failed` |
///
/// Call-specific meanings (Details' 404 / 400 on a place id means "unknown place", an empty
/// `routes` means "no drivable route") are decided by the adapters before they get here.
/// Messages never repeat Google's text or the key; logs carry the HTTP status and Google's
/// `status`/reason codes only.
enum GoogleErrorMapping {
    /// Statuses worth one more try: quota bursts and Google-side failures.
    static func isTransient(status: Int) -> Bool {
        status == 429 || (500...599).contains(status)
    }

    /// True when Google says the key itself is the problem, whatever the HTTP status: an
    /// invalid key comes back as 400 `INVALID_ARGUMENT` with reason `API_KEY_INVALID`, which
    /// must not be mistaken for "unknown place".
    static func isKeyProblem(_ status: GoogleAPIError.Status?) -> Bool {
        status?.details?.contains { $0.reason?.hasPrefix("API_KEY_") == true } == true
    }

    /// For a response whose status was not 2xx.
    static func error(for response: ProviderHTTPResponse, service: GoogleMapsService) -> ConciergeError {
        let googleError = GoogleAPIError.decode(response.body)
        if isKeyProblem(googleError) { return misconfigured(service) }
        switch response.status {
        case 401, 403:
            return misconfigured(service)
        case 429:
            return unavailable(service, retryAfterSeconds: retryAfterSeconds(response.header("Retry-After")))
        case 500...599:
            return unavailable(service, retryAfterSeconds: nil)
        default:
            return rejected(service)
        }
    }

    /// For a call that got no response at all, after the retry.
    static func error(for _: ProviderTransportError, service: GoogleMapsService) -> ConciergeError {
        unavailable(service, retryAfterSeconds: nil)
    }

    /// `error(for:service:)` plus a log line with what an operator needs (HTTP status, Google's
    /// status and reasons; never Google's message or the key), at a level matching whose
    /// problem it is.
    static func failure(
        _ response: ProviderHTTPResponse, service: GoogleMapsService, calling operation: String, logger: Logger
    ) -> ConciergeError {
        let error = error(for: response, service: service)
        let googleError = GoogleAPIError.decode(response.body)
        let reasons = googleError?.details?.compactMap(\.reason).joined(separator: ",")
        logger.log(
            level: error.category == .upstreamFailed ? .error : .warning, "\(service.name) \(operation) failed",
            metadata: [
                "http_status": "\(response.status)", "google_status": "\(googleError?.status ?? "none")",
                "google_reasons": "\(reasons.flatMap { $0.isEmpty ? nil : $0 } ?? "none")",
                "mapped_to": "\(error.code)",
            ])
        return error
    }

    static func failure(
        _ transportError: ProviderTransportError, service: GoogleMapsService, calling operation: String,
        logger: Logger
    ) -> ConciergeError {
        logger.warning(
            "\(service.name) \(operation) unreachable", metadata: ["transport_error": "\(transportError)"])
        return error(for: transportError, service: service)
    }

    /// A 2xx answer we could not make sense of; logged by the caller, which knows what it expected.
    static func unexpectedResponse(_ service: GoogleMapsService) -> ConciergeError {
        rejected(service)
    }

    static func misconfigured(_ service: GoogleMapsService) -> ConciergeError {
        ConciergeError(
            .upstreamFailed, code: service.failedCode,
            message:
                "\(service.whatFailed) because the maps provider is misconfigured on our server. Please try again later."
        )
    }

    static func unavailable(_ service: GoogleMapsService, retryAfterSeconds: Int?) -> ConciergeError {
        let when =
            retryAfterSeconds.map { "in \($0) \($0 == 1 ? "second" : "seconds")" } ?? "in a moment"
        return ConciergeError(
            .unavailable(retryAfterSeconds: retryAfterSeconds), code: service.unavailableCode,
            message:
                "\(service.whatFailed) because the maps provider is not responding right now. Please try again \(when)."
        )
    }

    static func rejected(_ service: GoogleMapsService) -> ConciergeError {
        ConciergeError(
            .upstreamFailed, code: service.failedCode,
            message:
                "\(service.whatFailed) because the maps provider could not handle the request. Please try again later."
        )
    }

    /// `Retry-After` in its delta-seconds form; the HTTP-date form is ignored rather than
    /// guessed, and a nonsense value counts as absent.
    static func retryAfterSeconds(_ value: String?) -> Int? {
        guard let value, let seconds = Int(value.trimmingCharacters(in: .whitespaces)), seconds > 0 else {
            return nil
        }
        return seconds
    }
}

/// What both Google adapters share: key, transport, time-out, and the one way a call is sent,
/// retried and its transport failures mapped.
///
/// Every call the adapters make is read-only (Details is a GET; autocomplete and computeRoutes
/// are POSTs that change nothing), so each is retried once, after `retryBackoff`, when no
/// answer arrived (time-out, connection refused or reset) or the answer was 429 or 5xx. A
/// second failure is final: a person is waiting on the answer, and one quick retry rides out a
/// blip while two would only stretch a real outage.
struct GoogleMapsEndpoint: Sendable {
    static let maxAttempts = 2

    let key: GoogleMapsKey
    let transport: any ProviderHTTPTransport
    let timeout: Duration
    let retryBackoff: Duration
    let service: GoogleMapsService
    let logger: Logger

    /// Sends `request`, retrying once as described above, and returns the last response
    /// whatever its status (the caller judges it). Throws the mapped `ConciergeError` when no
    /// response arrived, and `CancellationError` when the calling task was cancelled.
    func send(_ request: ProviderHTTPRequest, operation: String) async throws -> ProviderHTTPResponse {
        var attempt = 1
        while true {
            do {
                let response = try await transport.send(request, timeout: timeout)
                guard attempt < Self.maxAttempts, GoogleErrorMapping.isTransient(status: response.status) else {
                    return response
                }
                logger.info(
                    "\(service.name) \(operation) answered \(response.status); retrying once",
                    metadata: ["http_status": "\(response.status)"])
            } catch let error as ProviderTransportError {
                guard attempt < Self.maxAttempts else {
                    throw GoogleErrorMapping.failure(error, service: service, calling: operation, logger: logger)
                }
                logger.info(
                    "\(service.name) \(operation) got no answer; retrying once",
                    metadata: ["transport_error": "\(error)"])
            }
            attempt += 1
            if retryBackoff > .zero {
                try await Task.sleep(for: retryBackoff)
            } else {
                try Task.checkCancellation()
            }
        }
    }

    /// `baseURL` without a trailing slash, so paths can be appended as written.
    static func trimmed(_ baseURL: String) -> String {
        var url = baseURL
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
