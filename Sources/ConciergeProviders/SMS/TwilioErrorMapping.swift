import ConciergeCore
import Foundation
import Logging

/// Twilio's error document: `{"code": 20429, "message": "…", "more_info": "…", "status": 429}`.
///
/// Only `code` is read: the HTTP status is already on the response, and `message` is written
/// for developers and can contain request paths with the account SID, so it is never shown or
/// logged. The code is optional because a proxy in front of Twilio may answer with HTML or
/// nothing, and that must still map to a sensible error rather than a decoding failure.
struct TwilioAPIError: Decodable, Sendable {
    let code: Int?

    /// Never throws: an undecodable body is an error without a code.
    static func code(in body: Data) -> Int? {
        (try? JSONDecoder().decode(TwilioAPIError.self, from: body))?.code
    }
}

/// The one place that turns Twilio's failures into `ConciergeError`s.
///
/// The messages are for the person holding the phone, so they say what they can do (check the
/// number, wait, try later) and never repeat Twilio's own text: that text can contain request
/// paths with the account SID, and it is written for developers. Details belong in the logs,
/// which the adapters write with the status and Twilio code only.
enum TwilioErrorMapping {
    /// Twilio codes meaning "this number cannot get an SMS": 21211 invalid `To`, 21408 no
    /// permission for that region, 21610 recipient opted out, 21612 unroutable, 21614 not a
    /// mobile number, 60200 Verify's invalid parameter (in practice the number).
    static let badNumberCodes: Set<Int> = [21211, 21408, 21610, 21612, 21614, 60200]

    /// Verify's "max send attempts reached": five codes to one number within ten minutes.
    static let maxSendAttemptsCode = 60203

    static let tryAgainShortly = "We could not send the SMS right now. Please try again in a minute."

    /// For a response whose status was not 2xx.
    static func error(for response: ProviderHTTPResponse) -> ConciergeError {
        let twilioCode = TwilioAPIError.code(in: response.body)
        switch response.status {
        case 400 where twilioCode.map(badNumberCodes.contains) == true:
            return invalidPhone
        case 429:
            return rateLimited(
                retryAfterSeconds: retryAfterSeconds(response.header("Retry-After")), twilioCode: twilioCode)
        case 500...599:
            return unavailable
        default:
            // 401/403 (wrong credentials), 404 (wrong account or service SID) and every other
            // unexpected answer: retrying the same request will not help, an operator must.
            return misconfigured
        }
    }

    /// For a call that got no response at all (time-out, connection refused).
    static func error(for _: ProviderTransportError) -> ConciergeError {
        unavailable
    }

    /// `error(for:)` plus a log line with what an operator needs (status and Twilio code, never
    /// Twilio's text or our credentials), at a level matching whose problem it is.
    static func failure(_ response: ProviderHTTPResponse, calling operation: String, logger: Logger) -> ConciergeError {
        let error = error(for: response)
        let level: Logger.Level =
            switch error.category {
            case .invalidInput: .info
            case .upstreamFailed: .error
            default: .warning
            }
        let twilioCode = TwilioAPIError.code(in: response.body).map(String.init) ?? "none"
        logger.log(
            level: level, "Twilio \(operation) failed",
            metadata: [
                "http_status": "\(response.status)", "twilio_code": "\(twilioCode)", "mapped_to": "\(error.code)",
            ])
        return error
    }

    static func failure(_ transportError: ProviderTransportError, calling operation: String, logger: Logger)
        -> ConciergeError
    {
        logger.warning("Twilio \(operation) unreachable", metadata: ["transport_error": "\(transportError)"])
        return error(for: transportError)
    }

    /// For a 2xx answer we could not make sense of.
    static let unexpectedResponse = misconfigured

    static let invalidPhone = ConciergeError(
        .invalidInput, code: "invalid_phone",
        message:
            "We could not send an SMS to this number. Check that it is a mobile number that can receive text messages, including the country code, and try again."
    )

    static let unavailable = ConciergeError(
        .unavailable(retryAfterSeconds: nil), code: "sms_unavailable", message: tryAgainShortly)

    static let misconfigured = ConciergeError(
        .upstreamFailed, code: "sms_failed",
        message: "SMS delivery is misconfigured on our server, so we cannot send your code. Please try again later.")

    private static func rateLimited(retryAfterSeconds: Int?, twilioCode: Int?) -> ConciergeError {
        let message: String
        if let retryAfterSeconds {
            message =
                "We could not send the SMS right now. Please try again in \(retryAfterSeconds) \(retryAfterSeconds == 1 ? "second" : "seconds")."
        } else if twilioCode == maxSendAttemptsCode {
            message = "Too many codes were sent to this number. Please wait 10 minutes before requesting another one."
        } else {
            message = tryAgainShortly
        }
        return ConciergeError(
            .unavailable(retryAfterSeconds: retryAfterSeconds), code: "sms_unavailable", message: message)
    }

    /// `Retry-After` in its delta-seconds form; the rarely used HTTP-date form is ignored
    /// rather than guessed, and a nonsense value counts as absent.
    static func retryAfterSeconds(_ value: String?) -> Int? {
        guard let value, let seconds = Int(value.trimmingCharacters(in: .whitespaces)), seconds > 0 else {
            return nil
        }
        return seconds
    }
}
