import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// The whole rides flow over HTTP with the sandbox checkout.
@Suite struct BookingFlowTests {
    static let day: TimeInterval = 86_400

    static func app(_ engine: TestEngine = .sqlite, _ environment: [String: String] = [:]) async throws -> TestApp {
        try await TestApp.make(engine: engine, environment: environment)
    }

    @Test(arguments: TestEngine.all)
    func bookPayConfirmedAndOneEmail(engine: TestEngine) async throws {
        let app = try await Self.app(engine)
        let (reference, token) = try await app.run { client in
            let token = try await client.signedInCustomer()
            let booked = try await client.book(
                token: token, pickupAt: app.clock.now.addingTimeInterval(3 * Self.day), flight: "lx 318")
            #expect(booked.status == .ok)
            let booking = try booked.decode(BookingResponse.self)
            #expect(booking.success)
            #expect(booking.quoteReference?.hasPrefix("VRM-") == true)
            #expect(booking.tripRequestId == Int(booking.quoteReference?.dropFirst(4) ?? ""))
            #expect((booking.priceCents ?? 0) > 0 && (booking.priceCents ?? 0) % 5 == 0)
            let checkoutURL = try require(booking.checkoutUrl)
            #expect(checkoutURL.contains("/sandbox/checkout/"))

            let checkoutPath = try require(URL(string: checkoutURL)?.path)
            let page = try await client.send(.get, checkoutPath)
            #expect(String(buffer: page.body).contains(booking.priceFormatted ?? "?"))

            let paid = try await client.checkout(checkoutURL, outcome: "paid")
            #expect(paid.status == .seeOther)
            let returnURL = try require(paid.headers[.location])
            #expect(returnURL.contains("/rides/booking-confirmed?ref=\(booking.quoteReference ?? "")&t="))
            let returnComponents = try require(URLComponents(string: returnURL))
            let returnPage = try await client.send(
                .get, "\(returnComponents.path)?\(returnComponents.percentEncodedQuery ?? "")")
            #expect(String(buffer: returnPage.body).contains("Booking confirmed"))
            #expect(String(buffer: returnPage.body).contains("Zurich"))

            let reference = try require(booking.quoteReference)
            let detail = try await client.send(.get, "/rides/bookings/\(reference)", token: token)
            let summary = try detail.decode(BookingDetailResponse.self).booking
            #expect(summary.status == "confirmed")
            #expect(summary.flightNumber == "LX318")
            #expect(summary.checkoutUrl == nil)
            let status = try await client.bookingStatus(reference, token: token)
            #expect(status == "confirmed")
            return (reference, token)
        }
        // The worker delivers the confirmation exactly once, however often it runs.
        try await app.sibling().runWithWorker { client, worker in
            await worker.tick()
            await worker.tick()
            let emails = try await client.emails(subjectContaining: reference)
            #expect(emails.count == 1)
            #expect((emails.first?["to"] as? String) == "anna@example.ch")
            let body = emails.first?["body"] as? String ?? ""
            #expect(body.contains(reference) && body.contains("Zurich time") && body.contains("CHF"))
            let status = try await client.bookingStatus(reference, token: token)
            #expect(status == "confirmed")
        }
    }

    @Test func aCrashBetweenCommitAndSendLosesNothingAndAReplaySendsNothingTwice() async throws {
        let app = try await Self.app()
        let reference = try await app.run { client in
            let token = try await client.signedInCustomer()
            let booking = try await client.book(token: token, pickupAt: app.clock.now.addingTimeInterval(3 * Self.day))
                .decode(BookingResponse.self)
            let checkoutURL = try require(booking.checkoutUrl)
            _ = try await client.checkout(checkoutURL, outcome: "paid")
            // The webhook path again (a replayed notification), and the return page twice.
            _ = try await client.checkout(checkoutURL, outcome: "paid")
            // The process "crashes" here: the confirmation is committed but not sent yet.
            let early = try await client.emails(subjectContaining: "confirmed")
            #expect(early.isEmpty)
            return try require(booking.quoteReference)
        }
        for _ in 0..<2 {
            try await app.sibling().runWithWorker { client, worker in
                await worker.tick()
                let emails = try await client.emails(subjectContaining: reference)
                #expect(emails.count == 1)
            }
        }
    }

    @Test func customersWithoutEmailGetAnSMS() async throws {
        let app = try await Self.app()
        try await app.run { client in
            let token = try await client.signedInCustomer(phone: "+41795551111", email: nil)
            let booking = try await client.book(token: token, pickupAt: app.clock.now.addingTimeInterval(3 * Self.day))
                .decode(BookingResponse.self)
            _ = try await client.checkout(try require(booking.checkoutUrl), outcome: "paid")
        }
        try await app.sibling().runWithWorker { client, worker in
            await worker.tick()
            let sms = try await client.outboxMessages().filter {
                ($0["channel"] as? String) == "sms" && (($0["body"] as? String)?.contains("confirmed") ?? false)
            }
            #expect(sms.count == 1)
            #expect((sms.first?["to"] as? String) == "+41795551111")
        }
    }
}
