import Foundation
import Testing

/// The real binary with `OTEL_EXPORTER_OTLP_ENDPOINT` pointing at a stand-in collector: the
/// request's span, named by its route template and continuing the caller's `traceparent`, and
/// its database transaction's child span arrive over OTLP/HTTP; the request's JSON log lines
/// carry the same trace id next to the request id. A provider call is a child span and passes
/// its `traceparent` on.
@Suite(.serialized) struct TraceExportTests {
    static let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let callerSpanID = "00f067aa0ba902b7"
    static let traceparent = ("traceparent", "00-\(traceID)-\(callerSpanID)-01")

    @Test func spansGoOutAsProtobufWithTheCallersTraceIdAndTheRouteTemplate() async throws {
        try await TraceOTLPReceiverStub.run { stub in
            let server = try TraceServeProcess(environment: [
                "OTEL_EXPORTER_OTLP_ENDPOINT": stub.endpoint, "OTEL_BSP_SCHEDULE_DELAY": "50",
                "CONCIERGE_LOG_FORMAT": "json",
            ])
            try await server.start()
            defer { server.stop() }
            let sent = try await server.send(
                "POST", "/rides/sms-code-send", json: #"{"phone": "+41791234567"}"#,
                headers: [Self.traceparent, ("X-Request-Id", "trace-test-1")])
            #expect(sent.status == 200)

            let traceBytes = Data(hex: Self.traceID)
            let exports = try await stub.waitUntil { exports in
                let ours = exports.filter { $0.body.holds(traceBytes) }
                return ours.contains { $0.body.holds("POST /rides/sms-code-send") }
                    && ours.contains { $0.body.holds("sqlite transaction") }
            }
            #expect(exports.allSatisfy { $0.contentType == "application/x-protobuf" })
            // The start-up polls of /ready are not traced.
            #expect(!exports.contains { $0.body.holds("/ready") })

            server.stop()
            // Every line is JSON, swift-otel's own included.
            let rawLines = server.log.split(separator: "\n")
            #expect(rawLines.allSatisfy { JSONLogLine($0) != nil }, "\(rawLines.filter { JSONLogLine($0) == nil })")
            let lines = rawLines.compactMap(JSONLogLine.init)
            let requestLine = try #require(lines.first { $0.string("request_id") == "trace-test-1" })
            #expect(requestLine.string("trace_id") == Self.traceID)
            #expect(requestLine.string("span_id")?.count == 16)
        }
    }

    @Test func withHTTPJSONTheTransactionIsAChildOfTheRequestSpanWhichContinuesTheCaller() async throws {
        try await TraceOTLPReceiverStub.run { stub in
            let server = try TraceServeProcess(environment: [
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": stub.endpoint + "/v1/traces",
                "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_BSP_SCHEDULE_DELAY": "50",
            ])
            try await server.start()
            defer { server.stop() }
            let sent = try await server.send(
                "POST", "/rides/sms-code-send", json: #"{"phone": "+41791234568"}"#, headers: [Self.traceparent])
            #expect(sent.status == 200)

            let exports = try await stub.waitUntil { exports in
                let spans = exports.flatMap { OTLPJSONSpan.all(in: $0.body) }.filter { $0.traceID == Self.traceID }
                return spans.contains { $0.name == "POST /rides/sms-code-send" }
                    && spans.contains { $0.name == "sqlite transaction" }
            }
            #expect(exports.allSatisfy { $0.contentType.hasPrefix("application/json") })
            let spans = exports.flatMap { OTLPJSONSpan.all(in: $0.body) }.filter { $0.traceID == Self.traceID }
            let request = try #require(spans.first { $0.name == "POST /rides/sms-code-send" })
            #expect(request.parentSpanID == Self.callerSpanID)
            let transactions = spans.filter { $0.name == "sqlite transaction" }
            #expect(!transactions.isEmpty)
            #expect(transactions.allSatisfy { $0.parentSpanID == request.spanID })
        }
    }

    @Test func aProviderCallIsAChildSpanAndCarriesItsTraceparentToTheProvider() async throws {
        try await TraceOTLPReceiverStub.run { stub in
            let server = try TraceServeProcess(environment: [
                "OTEL_EXPORTER_OTLP_ENDPOINT": stub.endpoint, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
                "OTEL_BSP_SCHEDULE_DELAY": "50", "CONCIERGE_GOOGLE_JWKS": stub.endpoint + "/certs",
                "CONCIERGE_GOOGLE_AUDIENCES": "test-client.apps.googleusercontent.com",
            ])
            try await server.start()
            defer { server.stop() }
            // A Google ID token with a key id the server has not seen: it fetches Google's keys
            // (from the stub) during the request, finds none that fits, and refuses the token.
            func segment(_ json: String) -> String {
                Data(json.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
                    .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            }
            let token = [
                segment(#"{"alg":"RS256","kid":"unknown-key"}"#), segment(#"{"iss":"https://accounts.google.com"}"#),
                "c2lnbmF0dXJl",
            ].joined(separator: ".")
            let refused = try await server.send(
                "POST", "/account/sign-in/id-token", json: #"{"provider": "google", "idToken": "\#(token)"}"#,
                headers: [Self.traceparent])
            #expect(refused.status == 401)

            let fetch = try #require(stub.keyFetchTraceparents.first)
            let parts = fetch.split(separator: "-").map(String.init)
            #expect(parts.count == 4 && parts[1] == Self.traceID)
            // One value: a second `traceparent` would make the provider discard both.
            #expect(stub.keyFetchTraceparents.count == 1)
            let providersParentID = parts.count == 4 ? parts[2] : ""
            let exports = try await stub.waitUntil { exports in
                let spans = exports.flatMap { OTLPJSONSpan.all(in: $0.body) }
                // The request's span ends after its answer is sent, so it may come in a later batch.
                return spans.contains { $0.name == "GET 127.0.0.1" }
                    && spans.contains { $0.spanID == providersParentID }
                    && spans.contains { $0.name == "POST /account/sign-in/id-token" }
            }
            let spans = exports.flatMap { OTLPJSONSpan.all(in: $0.body) }.filter { $0.traceID == Self.traceID }
            let request = try #require(spans.first { $0.name == "POST /account/sign-in/id-token" })
            let call = try #require(spans.first { $0.name == "GET 127.0.0.1" })
            #expect(call.parentSpanID == request.spanID)
            // The provider's parent is the call's span, or AsyncHTTPClient's span below it.
            let providersParent = try #require(spans.first { $0.spanID == providersParentID })
            #expect(providersParent.spanID == call.spanID || providersParent.parentSpanID == call.spanID)
        }
    }

    @Test func withoutAnEndpointNoTraceIdReachesTheLogs() async throws {
        let server = try TraceServeProcess(environment: ["CONCIERGE_LOG_FORMAT": "json"])
        try await server.start()
        let sent = try await server.send(
            "POST", "/rides/sms-code-send", json: #"{"phone": "+41791234569"}"#,
            headers: [Self.traceparent, ("X-Request-Id", "no-trace-1")])
        #expect(sent.status == 200)
        server.stop()
        let lines = server.log.split(separator: "\n").compactMap(JSONLogLine.init)
        let requestLine = try #require(lines.first { $0.string("request_id") == "no-trace-1" })
        #expect(requestLine.string("trace_id") == nil)
        #expect(lines.allSatisfy { $0.string("trace_id") == nil })
    }
}

/// One span of an OTLP/JSON export. Ids are hex in OTLP/JSON; base64 (protobuf's JSON mapping
/// of bytes) is read too.
struct OTLPJSONSpan {
    let traceID: String
    let spanID: String
    let parentSpanID: String
    let name: String

    static func all(in body: Data) -> [OTLPJSONSpan] {
        guard let root = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return [] }
        let resources = root["resourceSpans"] as? [[String: Any]] ?? []
        let scopes = resources.flatMap { $0["scopeSpans"] as? [[String: Any]] ?? [] }
        return scopes.flatMap { $0["spans"] as? [[String: Any]] ?? [] }.map {
            OTLPJSONSpan(
                traceID: hex($0["traceId"]), spanID: hex($0["spanId"]), parentSpanID: hex($0["parentSpanId"]),
                name: $0["name"] as? String ?? "")
        }
    }

    private static func hex(_ value: Any?) -> String {
        guard let text = value as? String, !text.isEmpty else { return "" }
        if text.count % 2 == 0, text.allSatisfy(\.isHexDigit), text.count == 32 || text.count == 16 {
            return text.lowercased()
        }
        guard let bytes = Data(base64Encoded: text) else { return text }
        return bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}

/// One line of `CONCIERGE_LOG_FORMAT=json` output, parsed.
struct JSONLogLine {
    let fields: [String: Any]

    init?(_ line: Substring) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            return nil
        }
        fields = object
    }

    func string(_ key: String) -> String? { fields[key] as? String }
}
