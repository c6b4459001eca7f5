import CompressNIO
import ConciergeTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import ConciergeServer

/// Answers go out gzip-compressed to clients that accept it (issue 28 item 4), through the
/// whole application as built for production.
@Suite struct ResponseCompressionHTTPTests {
    static let gzip: HTTPFields = [.acceptEncoding: "gzip, deflate, br"]

    static func gunzip(_ body: ByteBuffer) throws -> ByteBuffer {
        var compressed = body
        return try compressed.decompress(with: .gzip())
    }

    @Test func theSeatMapPageComesBackGzipAndDecompressesToTheSameBytes() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.run { client in
            // The page's form token comes from a cookie: with the same cookie, the same bytes.
            let first = try await client.send(.get, "/events/shows/shw_demo_1")
            let setCookie = try #require(first.headers[values: .setCookie].first { $0.hasPrefix("concierge_csrf=") })
            let cookie: HTTPFields = [.cookie: String(setCookie.prefix { $0 != ";" })]
            let plain = try await client.send(.get, "/events/shows/shw_demo_1", headers: cookie)
            #expect(plain.status == .ok)
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(plain.headers[values: .vary].contains("Accept-Encoding"))
            #expect(String(buffer: plain.body).contains(#"data-seat-id="stalls-A1""#))

            var accepting = cookie
            accepting[.acceptEncoding] = "gzip, deflate, br"
            let packed = try await client.send(.get, "/events/shows/shw_demo_1", headers: accepting)
            #expect(packed.status == .ok)
            #expect(packed.headers[.contentEncoding] == "gzip")
            #expect(packed.headers[values: .vary].contains("Accept-Encoding"))
            #expect(packed.headers[.contentLength] == String(packed.body.readableBytes))
            #expect(packed.body.readableBytes * 4 < plain.body.readableBytes, "a seat map shrinks at least fourfold")
            #expect(try Self.gunzip(packed.body) == plain.body)
        }
    }

    @Test func withoutAcceptEncodingOrWithGzipRefusedTheAnswerIsPlain() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.run { client in
            for refusal in ["identity", "gzip;q=0, identity", "br", "*;q=0"] {
                let page = try await client.send(.get, "/events/shows/shw_demo_1", headers: [.acceptEncoding: refusal])
                #expect(page.headers[.contentEncoding] == nil, "\(refusal)")
                #expect(String(buffer: page.body).hasPrefix("<!"), "\(refusal)")
            }
            let wildcard = try await client.send(.get, "/events/shows/shw_demo_1", headers: [.acceptEncoding: "*"])
            #expect(wildcard.headers[.contentEncoding] == "gzip")
        }
    }

    @Test func aSmallJSONBodyIsNotCompressedAndALargeOneIs() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.run { client in
            let health = try await client.send(.get, "/health", headers: Self.gzip)
            #expect(health.status == .ok)
            #expect(health.body.readableBytes < 1024)
            #expect(health.headers[.contentEncoding] == nil)
            #expect(health.headers[.vary] == nil, "a small answer never varies")
            #expect(try JSONSerialization.jsonObject(with: Data(buffer: health.body)) is [String: Any])

            let seats = try await client.send(.get, "/events/api/shows/shw_demo_1/seats", headers: Self.gzip)
            #expect(seats.status == .ok)
            #expect(seats.headers[.contentEncoding] == "gzip")
            let plain = try await client.send(.get, "/events/api/shows/shw_demo_1/seats")
            #expect(try Self.gunzip(seats.body) == plain.body)
        }
    }

    /// A compressed asset carries a weak tag (it is another representation than the plain
    /// one); asked again with it, the answer is 304 with the same tag.
    @Test func aCompressedAssetIsRevalidatedWithItsWeakTag() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let plain = try await client.send(.get, "/assets/events-seatmap.js")
            let strong = try #require(plain.headers[.eTag])
            #expect(!strong.hasPrefix("W/"))
            let packed = try await client.send(.get, "/assets/events-seatmap.js", headers: Self.gzip)
            #expect(packed.headers[.contentEncoding] == "gzip")
            #expect(packed.headers[.eTag] == "W/" + strong)
            #expect(try Self.gunzip(packed.body) == plain.body)

            var again = Self.gzip
            again[.ifNoneMatch] = "W/" + strong
            let revalidated = try await client.send(.get, "/assets/events-seatmap.js", headers: again)
            #expect(revalidated.status == .notModified)
            #expect(revalidated.headers[.eTag] == "W/" + strong)
            #expect(revalidated.body.readableBytes == 0)
            // The plain copy's holder still gets its own tag back.
            let plainAgain = try await client.send(.get, "/assets/events-seatmap.js", headers: [.ifNoneMatch: strong])
            #expect(plainAgain.status == .notModified)
            #expect(plainAgain.headers[.eTag] == strong)
        }
    }

    @Test func compressionOffLeavesEveryAnswerPlain() async throws {
        let app = try await EventsTestApp.make(.sqlite, ["CONCIERGE_COMPRESSION": "off"])
        try await app.run { client in
            let page = try await client.send(.get, "/events/shows/shw_demo_1", headers: Self.gzip)
            #expect(page.headers[.contentEncoding] == nil)
            #expect(page.headers[.vary] == nil)
        }
    }

    @Test func aLowerMinimumCompressesSmallAnswersToo() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_COMPRESSION_MIN_BYTES": "0"])
        try await app.run { client in
            let health = try await client.send(.get, "/health", headers: Self.gzip)
            #expect(health.headers[.contentEncoding] == "gzip")
        }
    }
}
