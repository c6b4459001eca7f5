import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import ConciergeServer

/// The middleware on a router of its own, for answers the application does not make today: one
/// already encoded, a stream of unknown length, Server-Sent Events, a ranged answer.
@Suite struct ResponseCompressionMiddlewareTests {
    static let text = String(repeating: "<p>Seat A12, row A.</p>\n", count: 200)

    static func app() -> some ApplicationProtocol {
        // This server answers HEAD with 405 today; a router that makes HEAD from GET shows what
        // the middleware does with one.
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: ResponseCompressionMiddleware(settings: CompressionSettings()))
        router.get("encoded") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html", .contentEncoding: "br"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        router.get("stream") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html"],
                body: .init { writer in
                    try await writer.write(ByteBuffer(string: text))
                    try await writer.finish(nil)
                })
        }
        router.get("events") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/event-stream"],
                body: .init(byteBuffer: ByteBuffer(string: "data: " + text + "\n\n")))
        }
        router.get("range") { _, _ in
            Response(
                status: .partialContent, headers: [.contentType: "text/html", .contentRange: "bytes 0-4799/9600"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        router.get("page") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        router.get("no-transform") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html", .cacheControl: "no-transform"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        return Application(router: router)
    }

    @Test func answersThatMustNotBeCompressedGoOutAsTheyAre() async throws {
        try await Self.app().test(.router) { client in
            for path in ["/encoded", "/stream", "/events", "/range", "/no-transform"] {
                let response = try await client.execute(
                    uri: path, method: .get, headers: [.acceptEncoding: "gzip"])
                #expect(response.headers[.contentEncoding] != "gzip", "\(path)")
                #expect(String(buffer: response.body).contains("Seat A12"), "\(path)")
            }
        }
    }

    /// HEAD says what GET would: gzip, Vary, and the compressed length.
    @Test func headSaysWhatGetWould() async throws {
        try await Self.app().test(.router) { client in
            let get = try await client.execute(uri: "/page", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(get.headers[.contentEncoding] == "gzip")
            #expect(get.body.readableBytes < Self.text.utf8.count / 4)
            let head = try await client.execute(uri: "/page", method: .head, headers: [.acceptEncoding: "gzip"])
            #expect(head.status == .ok)
            #expect(head.headers[.contentEncoding] == "gzip")
            #expect(head.headers[values: .vary].contains("Accept-Encoding"))
            #expect(head.headers[.contentLength] == String(get.body.readableBytes))
            #expect(head.body.readableBytes == 0)
            let plainHead = try await client.execute(uri: "/page", method: .head)
            #expect(plainHead.headers[.contentEncoding] == nil)
            #expect(plainHead.headers[.contentLength] == String(Self.text.utf8.count))
        }
    }

    @Test func acceptEncodingIsReadWithItsQualities() {
        #expect(CompressionPolicy.acceptsGzip("gzip"))
        #expect(CompressionPolicy.acceptsGzip("deflate, GZIP;q=0.5"))
        #expect(CompressionPolicy.acceptsGzip("x-gzip"))
        #expect(CompressionPolicy.acceptsGzip("br, *"))
        #expect(!CompressionPolicy.acceptsGzip(nil))
        #expect(!CompressionPolicy.acceptsGzip(""))
        #expect(!CompressionPolicy.acceptsGzip("identity"))
        #expect(!CompressionPolicy.acceptsGzip("gzip;q=0"))
        #expect(!CompressionPolicy.acceptsGzip("gzip;q=0, *"))
        #expect(!CompressionPolicy.acceptsGzip("*;q=0"))
    }

    @Test func textTypesAreCompressibleAndEventStreamsAndImagesAreNot() {
        for type in [
            "text/html; charset=utf-8", "text/css", "text/javascript; charset=utf-8", "image/svg+xml",
            "application/json", "application/problem+json", "application/yaml", "text/plain; version=0.0.4",
        ] {
            #expect(CompressionPolicy.isCompressible(contentType: type), "\(type)")
        }
        for type in ["text/event-stream", "image/png", "application/pdf", "application/octet-stream"] {
            #expect(!CompressionPolicy.isCompressible(contentType: type), "\(type)")
        }
        #expect(!CompressionPolicy.isCompressible(contentType: nil))
    }

    @Test func tagsCompareWeakly() {
        #expect(CompressionPolicy.weakened(#""abc""#) == #"W/"abc""#)
        #expect(CompressionPolicy.weakened(#"W/"abc""#) == #"W/"abc""#)
        #expect(CompressionPolicy.ifNoneMatch(#"W/"abc""#, matches: #""abc""#))
        #expect(CompressionPolicy.ifNoneMatch(#""x", "abc""#, matches: #""abc""#))
        #expect(CompressionPolicy.ifNoneMatch("*", matches: #""abc""#))
        #expect(!CompressionPolicy.ifNoneMatch(#""abd""#, matches: #""abc""#))
        #expect(!CompressionPolicy.ifNoneMatch(nil, matches: #""abc""#))
    }

    @Test func theSettingsAreCheckedAtStart() throws {
        #expect(try CompressionSettings(environment: [:]) == CompressionSettings(minimumBytes: 1024, level: 1))
        #expect(try CompressionSettings(environment: ["CONCIERGE_COMPRESSION": "off"]) == nil)
        #expect(
            try CompressionSettings(environment: [
                "CONCIERGE_COMPRESSION_MIN_BYTES": "0", "CONCIERGE_COMPRESSION_LEVEL": "1",
            ])
                == CompressionSettings(minimumBytes: 0, level: 1))
        #expect(throws: ConfigurationError.self) {
            try CompressionSettings(environment: ["CONCIERGE_COMPRESSION": "br"])
        }
        #expect(throws: ConfigurationError.self) {
            try CompressionSettings(environment: ["CONCIERGE_COMPRESSION_LEVEL": "10"])
        }
        #expect(throws: ConfigurationError.self) {
            try CompressionSettings(environment: ["CONCIERGE_COMPRESSION_MIN_BYTES": "-1"])
        }
    }
}
