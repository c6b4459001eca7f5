import ConciergeCore
import ConciergeProviders
import Foundation
import Logging
import Testing

/// Values shared by the Google tests.
///
/// Fixture provenance (Fixtures/google_*.json): `google_autocomplete_200`,
/// `google_place_details_minimal_200`, `google_routes_200` (polyline trimmed) and
/// `google_error_400_invalid_argument` are the examples of the contract README (sections 4
/// and 5), built from googleapis' `places_service.proto`, `place.proto` and `route.proto`.
/// `google_place_details_200` adds the `types` and `timeZone` fields `place.proto` defines.
/// The empty answers are proto3 JSON's `{}`. The other error documents follow the
/// `google.rpc.Status` shape the contract gives, with the statuses it lists; their message texts
/// are illustrative (the adapters never read them), and the 403 one quotes the test key, as
/// Google's restriction errors can.
enum GoogleTestValues {
    /// Must match the key quoted in `google_error_403_permission_denied.json`.
    static let apiKey = "AIzaSyTESTKEY-not-real-0123456789abcd"
    static let key = GoogleMapsKey(apiKey)
    static let schipholId = "ChIJLRb94DIJxkcRp5q0yT8z8ZE"
    static let sessionToken = "3f1c6c0e-8a4b-4b9e-9a57-2b8f1a0c9d11"

    static let amsterdamCentraal = PlaceDetails(
        placeId: "ChIJVXealLU_xkcRja_At0z9AGY", name: "Amsterdam Centraal",
        formattedAddress: "Stationsplein, 1012 AB Amsterdam, Netherlands",
        coordinate: Coordinate(latitude: 52.3791283, longitude: 4.900272), kind: .station,
        timeZone: "Europe/Amsterdam")
    static let schiphol = PlaceDetails(
        placeId: schipholId, name: "Amsterdam Airport Schiphol",
        formattedAddress: "Evert van de Beekstraat 202, 1118 CP Schiphol, Netherlands",
        coordinate: Coordinate(latitude: 52.3105386, longitude: 4.7682744), kind: .airport,
        timeZone: "Europe/Amsterdam")
    /// A gazetteer place: its id means nothing to Google.
    static let zurichHB = PlaceDetails(
        placeId: "gz_zurich_hb", name: "Zürich HB", formattedAddress: "Bahnhofplatz, 8001 Zürich, Switzerland",
        coordinate: Coordinate(latitude: 47.3779, longitude: 8.5403), kind: .station, timeZone: "Europe/Zurich")

    static func places(_ transport: RecordingTransport, logger: Logger = Logger(label: "test")) -> GooglePlacesClient {
        GooglePlacesClient(key: key, transport: transport, retryBackoff: .zero, logger: logger)
    }

    static func routes(
        _ transport: RecordingTransport, clock: any TimeSource = ManualTimeSource(),
        logger: Logger = Logger(label: "test")
    ) -> GoogleRoutesClient {
        GoogleRoutesClient(key: key, clock: clock, transport: transport, retryBackoff: .zero, logger: logger)
    }
}

extension Fixture {
    /// An autocomplete answer in the shape of `google_autocomplete_200.json` with one place
    /// prediction per entry, for type mixes and counts the recorded example does not have.
    static func googleAutocomplete(_ predictions: [(id: String, main: String, secondary: String, types: [String])])
        throws -> Data
    {
        let suggestions: [[String: Any]] = predictions.map { prediction in
            [
                "placePrediction": [
                    "place": "places/\(prediction.id)",
                    "placeId": prediction.id,
                    "text": ["text": "\(prediction.main), \(prediction.secondary)"],
                    "structuredFormat": [
                        "mainText": ["text": prediction.main], "secondaryText": ["text": prediction.secondary],
                    ],
                    "types": prediction.types,
                ]
            ]
        }
        return try JSONSerialization.data(withJSONObject: ["suggestions": suggestions])
    }
}

/// Answers a fixed sequence of responses, one per call (the last one repeats), for retry tests.
final class ScriptedAnswers: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: [Result<ProviderHTTPResponse, ProviderTransportError>]

    init(_ answers: [Result<ProviderHTTPResponse, ProviderTransportError>]) {
        precondition(!answers.isEmpty)
        self.remaining = answers
    }

    func next() throws -> ProviderHTTPResponse {
        let answer = lock.withLock { remaining.count > 1 ? remaining.removeFirst() : remaining[0] }
        return try answer.get()
    }

    var transport: RecordingTransport {
        RecordingTransport { _ in try self.next() }
    }

    static func response(status: Int, fixture: String, headers: [(String, String)] = []) throws
        -> Result<ProviderHTTPResponse, ProviderTransportError>
    {
        .success(ProviderHTTPResponse(status: status, headers: headers, body: try Fixture.data(fixture)))
    }
}

/// A JSON document as plain values, to compare request bodies by content rather than by the
/// encoder's whitespace and number formatting.
enum JSONValue: Equatable, Decodable, ExpressibleByStringLiteral, ExpressibleByFloatLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByBooleanLiteral
{
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    static func parse(_ data: Data?) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: try #require(data, "no body"))
    }

    init(stringLiteral value: String) { self = .string(value) }
    init(floatLiteral value: Double) { self = .number(value) }
    init(integerLiteral value: Int) { self = .number(Double(value)) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(uniqueKeysWithValues: elements))
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
}

/// Keeps every log line (message and metadata) so tests can check no secret reaches the logs.
final class CapturedLogs: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var text: String { lock.withLock { lines.joined(separator: "\n") } }

    func append(_ line: String) {
        lock.withLock { lines.append(line) }
    }

    var logger: Logger {
        Logger(label: "test.captured") { _ in CapturingLogHandler(logs: self) }
    }
}

struct CapturingLogHandler: LogHandler {
    let logs: CapturedLogs
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        logs.append("\(event.level) \(event.message) \(event.metadata ?? [:])")
    }
}
