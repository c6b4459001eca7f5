import ConciergeCore
import ConciergeTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// A drawn room picture with a hostile room type name (review 2026-11-27, finding 9): the name
/// stays text inside the SVG's attributes, and the picture, opened as its own page, may run
/// nothing (its Content-Security-Policy).
@Suite struct StaysPictureEscapingHTTPTests {
    static let admin = "stays-picture-admin-token-0123456789ab"

    @Test func aRoomTypeNameCannotAddAnAttributeToItsPicture() async throws {
        let app = try await TestApp.make(
            engine: .sqlite,
            environment: StaysFixtures.environment.merging(["CONCIERGE_ADMIN_TOKEN": Self.admin]) { $1 })
        try await app.run { client in
            let renamed = try await client.stays(
                .patch, "/admin/room-types/4", json: #"{"type": "S\" onload='import(1)' & <b>"}"#, token: Self.admin,
                as: HotelSettings.RoomType.self)
            let image = try #require(renamed.data?.image)
            let picture = try await client.send(.get, "/stays/images/\(image)")
            #expect(picture.status == .ok && picture.headers[.contentType] == "image/svg+xml")
            let svg = String(buffer: picture.body)
            #expect(!svg.contains(#"" onload"#) && !svg.contains("'import") && !svg.contains("<b>"))
            #expect(svg.contains(#"aria-label="S&quot; onload=&#39;import(1)&#39; &amp; &lt;b&gt; room""#))
            #expect(picture.headers[.contentSecurityPolicy] == "default-src 'none'; style-src 'unsafe-inline'")
        }
    }

    @Test func everyAnswerThatIsNotAPageOrJSONLetsNothingRun() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: StaysFixtures.environment)
        try await app.run { client in
            let seatMap = try await client.send(.get, "/events/api/shows/shw_demo_1/seatmap.svg")
            #expect(seatMap.status == .ok)
            #expect(
                seatMap.headers[.contentSecurityPolicy] == SecurityHeadersMiddleware<AppRequestContext>.nonHTMLPolicy)
            let json = try await client.send(.get, "/stays/rooms")
            #expect(json.headers[.contentSecurityPolicy] == SecurityHeadersMiddleware<AppRequestContext>.strictPolicy)
            let page = try await client.send(.get, "/")
            #expect(page.headers[.contentSecurityPolicy] == WebFrontEnd.contentSecurityPolicy)
        }
        #expect(SecurityHeadersMiddleware<AppRequestContext>.policy(contentType: "text/html; charset=utf-8") == nil)
        #expect(
            SecurityHeadersMiddleware<AppRequestContext>.policy(contentType: "application/problem+json")
                == SecurityHeadersMiddleware<AppRequestContext>.strictPolicy)
        for type in ["image/svg+xml", "image/png", "text/plain; charset=utf-8", "application/pdf", nil] {
            #expect(
                SecurityHeadersMiddleware<AppRequestContext>.policy(contentType: type)
                    == "default-src 'none'; style-src 'unsafe-inline'")
        }
    }
}
