import ConciergeModels
import ConciergeTestSupport
import Foundation
import Testing

/// Whatever a client gets wrong is a 4xx in the wrapper, naming the field, never a 5xx — and
/// writes nothing.
@Suite struct StaysBadInputHTTPTests {
    @Test func wrongRangesGuestsRoomsAndBodiesAre4xxInTheWrapper() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: StaysFixtures.environment)
        try await app.run { client in
            let user = try await client.staysSignUp()
            let token = user.token
            let searches: [(String, String)] = [
                ("dStartTime=2027-02-03&dEndTime=2027-02-01&guests=2", "dEndTime"),
                ("dStartTime=2027-02-01&dEndTime=2027-04-01&guests=2", "dEndTime"),
                ("dStartTime=2027-01-10&dEndTime=2027-01-20&guests=2", "dStartTime"),
                ("dStartTime=2029-01-10&dEndTime=2029-01-12&guests=2", "dStartTime"),
                ("dStartTime=2027-02-30&dEndTime=2027-03-02&guests=2", "dStartTime"),
                ("dStartTime=tomorrow&dEndTime=2027-02-03&guests=2", "dStartTime"),
                ("dStartTime=2027-02-01&dEndTime=2027-02-03&guests=9", "guests"),
                ("dStartTime=2027-02-01&dEndTime=2027-02-03&guests=two", "guests"),
                ("dStartTime=2027-02-01&dEndTime=2027-02-03", "guests"),
                ("dStartTime=2027-02-01&dEndTime=2027-02-03&guests=2&children=", "children"),
            ]
            for (query, field) in searches {
                let answer = try await client.stays(
                    .get, "/rooms?\(query)", token: token, as: Stays.ValidationFields.self)
                #expect(answer.status == .badRequest, "\(query)")
                #expect(answer.data?.fields[field] != nil, "\(query): \(answer.data?.fields ?? [:])")
            }
            let bodies: [(String, String?)] = [
                (StaysFixtures.reserve(room: 99), "roomHotelId"),
                (StaysFixtures.reserve(room: 1, guests: 2), "guests"),
                (StaysFixtures.reserve(from: "2027-02-03", to: "2027-02-01"), "checkOut"),
                (StaysFixtures.reserve(from: "2027-01-01", to: "2027-01-03"), "checkIn"),
                (#"{"roomHotelId": 2, "checkIn": "2027-02-01", "checkOut": 1, "guests": 2}"#, nil),
                (#"{"roomHotelId": 2, "checkIn": 1.5, "checkOut": 1, "guests": 2}"#, nil),
                (#"{"roomHotelId": 2, "checkIn": 1, "checkOut": 2}"#, nil),
                (#"{"roomHotelId": 2,"#, nil),
                ("[]", nil),
                (#"{"roomHotelId": 2, "checkIn": -5, "checkOut": 99999999999999999, "guests": 2}"#, "checkIn"),
            ]
            for (body, field) in bodies {
                let answer = try await client.stays(
                    .post, "/appointment", json: body, token: token, as: Stays.ValidationFields.self)
                #expect(answer.status == .badRequest, "\(body)")
                #expect(answer.keys.contains("messsage") && answer.envelope.timeStamp > 0)
                if let field { #expect(answer.data?.fields[field] != nil, "\(body): \(answer.data?.fields ?? [:])") }
            }
            let list = try await client.stays(.get, "/appointment/\(user.guestId)?when=someday", token: token)
            #expect(list.status == .badRequest)
            #expect(try await client.stays(.get, "/appointment/abc", token: token).status == .badRequest)
            #expect(
                try await client.stays(.get, "/rooms?dStartTime=2027-02-01&dEndTime=2027-02-03&guests=2").status
                    == .unauthorized)
            #expect(try await client.stays(.get, "/nowhere").status == .notFound)
            #expect(try await client.stays(.put, "/appointment").status == .methodNotAllowed)
            let options = try await client.send(.options, "/stays/user/register")
            #expect(options.status == .methodNotAllowed && options.headers[.allow] == "POST")
            let reserved = try await client.stays(
                .post, "/user/register", json: StaysFixtures.register("register"), as: Stays.ValidationFields.self)
            #expect(reserved.status == .badRequest && reserved.data?.fields["username"] != nil)
            #expect(try await client.stays(.post, "/login", json: #"{"username": 5}"#).status == .badRequest)
            let reservations = try await client.stays(
                .get, "/appointment/\(user.guestId)", token: token, as: [Stays.Reservation].self)
            #expect(reservations.data?.isEmpty == true)
        }
    }

    @Test func roomImagesAreServedWithoutAToken() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let image = try await client.send(.get, "/stays/images/suite.svg")
            #expect(image.status == .ok && image.headers[.contentType] == "image/svg+xml")
            #expect(String(buffer: image.body).contains("Suite"))
            #expect(try await client.stays(.get, "/images/nothing.png").status == .notFound)
        }
    }
}
