import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import Testing

@testable import ConciergeServer

/// The security review's findings that show at the HTTP surface (`security-2026-11.md`):
/// each test failed on the code the review read.
@Suite struct SecurityHardeningHTTPTests {
    /// Finding 2: a `text/plain` POST is a CORS "simple request" any web page can make its
    /// visitors send; JSON routes refuse it, so a page cannot trigger SMS sends.
    @Test func aJSONRouteRefusesABodyThatIsNotDeclaredJSON() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            for contentType in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
                let response = try await client.execute(
                    uri: "/rides/sms-code-send", method: .post, headers: [.contentType: contentType],
                    body: ByteBuffer(string: #"{"phone": "+41791234567"}"#))
                #expect(response.status == .unsupportedMediaType)
                #expect(response.errorBody?.code == "unsupported_media_type")
            }
            let untyped = try await client.execute(
                uri: "/rides/sms-code-send", method: .post, headers: [:],
                body: ByteBuffer(string: #"{"phone": "+41791234567"}"#))
            #expect(untyped.status == .unsupportedMediaType)
            let withCharset = try await client.execute(
                uri: "/rides/sms-code-send", method: .post,
                headers: [.contentType: "Application/JSON; charset=utf-8"],
                body: ByteBuffer(string: #"{"phone": "+41791234567"}"#))
            #expect(withCharset.status == .ok)
            let outbox = try await client.send(.get, "/dev/outbox")
            #expect(String(buffer: outbox.body).components(separatedBy: "Your Concierge code").count == 2)
        }
    }

    /// Finding 22: every answer, errors included, forbids sniffing, referrers and framing; JSON
    /// gets a policy that lets nothing run, and HTML pages allow only their own stylesheet.
    @Test func everyAnswerCarriesTheSecurityHeaders() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.signedInCustomer()
            let booked = try await client.book(token: token, pickupAt: app.clock.now.addingTimeInterval(3 * 86_400))
            let checkoutURL = try #require(booked.decode(BookingResponse.self).checkoutUrl)
            let page = try await client.send(.get, try #require(URL(string: checkoutURL)?.path))
            #expect(page.status == .ok)
            for response in [
                try await client.send(.get, "/health"), try await client.send(.get, "/no/such/path"), page,
            ] {
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[.referrerPolicy] == "no-referrer")
                #expect(response.headers[.xFrameOptions] == "DENY")
            }
            let missing = try await client.send(.get, "/no/such/path")
            #expect(
                missing.headers[.contentSecurityPolicy] == "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"
            )
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("style-src 'sha256-") && !policy.contains("unsafe-inline"))
            #expect(policy.contains("frame-ancestors 'none'") && policy.contains("form-action 'self'"))
        }
    }

    /// Finding 1: numbers outside the served countries get no code, whatever their format.
    @Test func codesGoOnlyToNumbersOfTheServedCountries() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            for phone in ["+881612345678", "+1 268 555 0100", "+44 7700 900123"] {
                let response = try await client.send(.post, "/rides/sms-code-send", json: #"{"phone": "\#(phone)"}"#)
                #expect(response.status == .badRequest)
                #expect(response.errorBody?.code == "invalid_phone")
                #expect(response.errorBody?.error.contains("Switzerland") == true)
            }
            for phone in ["+41 79 123 45 67", "+423 790 12 34", "+49 151 2345 6789", "+39 06 1234 5678"] {
                let response = try await client.send(.post, "/rides/sms-code-send", json: #"{"phone": "\#(phone)"}"#)
                #expect(response.status == .ok, "\(phone)")
            }
        }
        let everywhere = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_SMS_ALLOWED_COUNTRIES": "*"])
        try await everywhere.run { client in
            let response = try await client.send(.post, "/rides/sms-code-send", json: #"{"phone": "+44 7700 900123"}"#)
            #expect(response.status == .ok)
        }
    }

    /// Finding 1: a flood of numbers, each within its own limits, trips the global breaker.
    @Test func theGlobalSendBudgetStopsAFloodOfNumbers() async throws {
        let app = try await TestApp.make(
            engine: .sqlite,
            environment: ["CONCIERGE_OTP_SENDS_PER_HOUR": "3", "CONCIERGE_OTP_SENDS_PER_IP_HOUR": "1000"])
        try await app.run { client in
            for index in 1...3 {
                let sent = try await client.send(
                    .post, "/rides/sms-code-send", json: #"{"phone": "+4179100000\#(index)"}"#)
                #expect(sent.status == .ok)
            }
            let fourth = try await client.send(.post, "/rides/sms-code-send", json: #"{"phone": "+41791000009"}"#)
            #expect(fourth.status == .tooManyRequests)
            #expect(fourth.errorBody?.code == "rate_limited")
            #expect(fourth.headers[.retryAfter] != nil)
        }
    }

    /// Finding 1 and 24: an IPv6 host picks any address of its /64, so the network is what is
    /// counted; a forwarded value that is not an address is ignored; with two proxies in a row,
    /// the client is the second address from the end.
    @Test func clientNetworksAreCountedByTheirSlash64AndForwardedValuesAreChecked() async throws {
        let app = try await TestApp.make(
            engine: .sqlite,
            environment: [
                "CONCIERGE_TRUST_PROXY": "true", "CONCIERGE_TRUSTED_PROXY_HOPS": "2",
                "CONCIERGE_OTP_SENDS_PER_IP_HOUR": "2",
            ])
        try await app.run { client in
            func send(_ phone: String, forwardedFor: String) async throws -> HTTPResponse.Status {
                try await client.send(
                    .post, "/rides/sms-code-send", json: #"{"phone": "\#(phone)"}"#,
                    headers: [.init("X-Forwarded-For")!: forwardedFor]
                ).status
            }
            // The client wrote the first value; the CDN appended the client's real address, the
            // load balancer the CDN's.
            let first = try await send("+41791000001", forwardedFor: "9.9.9.9, 2001:db8:1:2::1, 10.0.0.1")
            let second = try await send("+41791000002", forwardedFor: "8.8.8.8, 2001:db8:1:2:ffff::7, 10.0.0.1")
            let third = try await send("+41791000003", forwardedFor: "7.7.7.7, 2001:0db8:0001:0002:abcd::9, 10.0.0.1")
            // Another /64 has its own allowance.
            let otherNetwork = try await send("+41791000004", forwardedFor: "2001:db8:1:3::1, 10.0.0.1")
            #expect(first == .ok && second == .ok)
            #expect(third == .tooManyRequests)
            #expect(otherNetwork == .ok)
        }
        #expect(ClientNetwork.isAddress("2001:db8::1") && ClientNetwork.isAddress("192.0.2.1"))
        #expect(!ClientNetwork.isAddress("not-an-ip") && !ClientNetwork.isAddress("999.1.1.1"))
    }

    /// Finding 3: each booking opens a payment at the provider; one customer cannot flood them.
    @Test func aCustomerHasAtMostThreeUnpaidBookingsAndTenAnHour() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.signedInCustomer()
            let pickup = app.clock.now.addingTimeInterval(3 * 86_400)
            var references: [String] = []
            for _ in 1...3 {
                let booked = try await client.book(token: token, pickupAt: pickup)
                #expect(booked.status == .ok)
                references.append(try booked.decode(BookingResponse.self).quoteReference ?? "")
            }
            let fourth = try await client.book(token: token, pickupAt: pickup)
            #expect(fourth.status == .tooManyRequests)
            #expect(fourth.errorBody?.code == "too_many_unpaid_bookings")
            // Another customer is not affected.
            let other = try await client.signedInCustomer(phone: "+41791110000")
            #expect(try await client.book(token: other, pickupAt: pickup).status == .ok)
            // Cancelling one unpaid booking makes room.
            let cancelled = try await client.send(.post, "/rides/bookings/\(references[0])/cancel", token: token)
            #expect(cancelled.status == .ok)
            #expect(try await client.book(token: token, pickupAt: pickup).status == .ok)
        }
        let hourly = try await TestApp.make(
            engine: .sqlite,
            environment: ["CONCIERGE_MAX_UNPAID_BOOKINGS": "0", "CONCIERGE_MAX_BOOKINGS_PER_HOUR": "2"])
        try await hourly.run { client in
            let token = try await client.signedInCustomer()
            let pickup = hourly.clock.now.addingTimeInterval(3 * 86_400)
            for _ in 1...2 { #expect(try await client.book(token: token, pickupAt: pickup).status == .ok) }
            let third = try await client.book(token: token, pickupAt: pickup)
            #expect(third.status == .tooManyRequests)
            #expect(third.errorBody?.code == "too_many_bookings")
            #expect(third.headers[.retryAfter] == "3600")
            hourly.clock.advance(by: 3601)
            #expect(try await client.book(token: token, pickupAt: pickup).status == .ok)
        }
    }

    /// Finding 7: pricing and places need no sign-in and may each cost a provider call, so a
    /// client network gets a steady allowance.
    @Test func pricingAndPlacesAreLimitedPerClientNetwork() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_PUBLIC_READS_PER_MINUTE": "3"])
        try await app.run { client in
            let pickup = WireDate.string(from: app.clock.now.addingTimeInterval(3 * 86_400))
            let pricing =
                "/rides/pricing?originPlaceId=gz_iata_ZRH&destinationPlaceId=gz_geo_2657896&pickupDatetime=\(pickup)"
            for _ in 0..<2 { #expect(try await client.send(.get, pricing).status == .ok) }
            #expect(try await client.send(.get, "/rides/places/autocomplete?input=zur").status == .ok)
            let limited = try await client.send(.get, pricing)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.errorBody?.code == "rate_limited")
            #expect(limited.headers[.retryAfter] == "20")
            // Signed-in routes and health are not counted.
            #expect(try await client.send(.get, "/health").status == .ok)
            app.clock.advance(by: 20)
            #expect(try await client.send(.get, pricing).status == .ok)
        }
    }

    /// Finding 6: a connection that never finishes its request is closed after the idle time,
    /// so slow clients cannot hold every socket open.
    @Test func aConnectionThatNeverFinishesItsRequestIsClosed() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_HTTP_IDLE_TIMEOUT_SECONDS": "2"])
        let assembly = try await assemble(configuration: app.configuration, clock: app.clock, logger: TestApp.quiet)
        let application = makeApplication(assembly: assembly, configuration: app.configuration) { _ in }
        try await application.test(.live) { client in
            let port = try #require(client.port)
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: port).get()
            let started = ContinuousClock.now
            // On a busy machine the idle time may pass before this write: the server has then
            // closed the connection already, which is what is checked below.
            try? await channel.writeAndFlush(ByteBuffer(string: "GET /health HTTP/1.1\r\nHost: x\r\n")).get()
            // Closed by the server; the bound only keeps a broken build from hanging the suite.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await channel.closeFuture.get() }
                group.addTask {
                    try await Task.sleep(for: .seconds(30))
                    throw TestFailure("the half-sent request was still open after 30 s")
                }
                try await group.next()
                group.cancelAll()
            }
            #expect(started.duration(to: .now) < .seconds(30))
        }
    }
}
