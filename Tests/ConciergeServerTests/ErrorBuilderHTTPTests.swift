import ConciergeModels
import ConciergeTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

@testable import ConciergeServer

/// The one error body builder as each vertical's clients see it: how that vertical signs in,
/// fields named with their type, per-field errors and extra facts in the vertical's envelope,
/// `Idempotency-Key` reuse, PATCH fields that cannot change, and 405's `Allow`.
@Suite struct ErrorBuilderHTTPTests {
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    /// Pay-at-hotel reservations without verifying the guest's email first (not what these tests are about).
    static let stays = StaysFixtures.environment.merging(["CONCIERGE_STAYS_PAY_AT_HOTEL_NEEDS_VERIFIED_EMAIL": "false"])
    {
        $1
    }

    // MARK: 401 says how this vertical signs in

    @Test func anEventsRequestWithoutASessionSaysToSignInWithEmailAndPassword() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.run { client in
            let response = try await client.send(
                .post, "/events/api/seat-checkout", json: #"{"showId": "shw_demo_1", "specificSeatIds": ["a"]}"#)
            #expect(response.status == .unauthorized)
            let error = try #require(response.errorBody)
            #expect(error.code == "session_expired")
            #expect(error.error.contains("email and password"), "\(error.error)")
            #expect(!error.error.contains("phone number"), "\(error.error)")
        }
    }

    @Test func aStaysRequestWithoutASessionSaysToSignInWithUsernameAndPassword() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: StaysFixtures.environment)
        try await app.run { client in
            let answer = try await client.stays(.get, "/rooms?dStartTime=2027-02-01&dEndTime=2027-02-03&guests=2")
            #expect(answer.status == .unauthorized && answer.envelope.errorType == "session_expired")
            #expect(answer.envelope.message.contains("username and password"), "\(answer.envelope.message)")
            #expect(!answer.envelope.message.contains("phone number"), "\(answer.envelope.message)")
        }
    }

    @Test func aRidesRequestWithoutASessionStillSaysToSignInWithThePhoneNumber() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let response = try await client.send(.get, "/rides/me")
            #expect(response.status == .unauthorized)
            #expect(
                response.errorBody?.error
                    == "Your session has expired or you are not signed in. Sign in again with your phone number.")
        }
    }

    // MARK: A field of the wrong type is named, with the type it must have

    @Test func aStaysCheckInSentAsADateStringNamesTheFieldAndItsFormatInDataFields() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: StaysFixtures.environment)
        try await app.run { client in
            let user = try await client.staysSignUp()
            let answer = try await client.stays(
                .post, "/appointment",
                json: #"{"roomHotelId": 2, "checkIn": "2027-03-20", "checkOut": "2027-03-22", "guests": 2}"#,
                token: user.token, as: Stays.ValidationFields.self)
            #expect(answer.status == .badRequest)
            #expect(answer.envelope.message.contains("'checkIn' must be a time in Unix epoch milliseconds"))
            #expect(answer.envelope.message.contains("2027-03-20"), "\(answer.envelope.message)")
            #expect(answer.data?.fields["checkIn"] == answer.envelope.message)
            #expect(answer.keys.contains("messsage"))
        }
    }

    @Test func anEventsSeatIdOfTheWrongTypeIsNamedAsAnArrayElement() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.runWithWorker { client, worker in
            let token = try await client.eventsBuyer("types@example.ch", worker: worker)
            let response = try await client.send(
                .post, "/events/api/seat-checkout", json: #"{"showId": "shw_demo_1", "specificSeatIds": [12]}"#,
                token: token)
            #expect(response.status == .badRequest)
            let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            #expect(body?["error"] as? String == "The field 'specificSeatIds[0]' must be a string.")
            #expect((body?["fields"] as? [String: String])?["specificSeatIds[0]"] != nil)
            #expect(body?["success"] as? Bool == false)
        }
    }

    @Test func aRidesPassengerCountSentAsTextSaysItMustBeAWholeNumber() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.signedInCustomer()
            let response = try await client.send(
                .post, "/rides/app-book",
                json: #"""
                    {"pickup": {"placeId": "gz_iata_ZRH", "description": "A"},
                     "destination": {"placeId": "gz_geo_2657896", "description": "B"},
                     "dateTime": "2027-03-20T10:00:00Z", "passengers": "two", "vehicleClass": "business"}
                    """#, token: token)
            #expect(response.status == .badRequest)
            #expect(response.errorBody?.error == "The field 'passengers' must be a whole number.")
        }
    }

    // MARK: Idempotency-Key reused with another body

    @Test(arguments: TestEngine.all)
    func aStaysIdempotencyKeyReusedWithAnotherBodyIs422AndTheSameBodyGetsTheFirstReservation(engine: TestEngine)
        async throws
    {
        let app = try await TestApp.make(engine: engine, environment: Self.stays)
        try await app.run { client in
            let user = try await client.staysSignUp()
            let key: HTTPFields = [Self.idempotencyKey: "stay-1"]
            let first = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: user.token, headers: key,
                as: Stays.Reservation.self)
            #expect(first.status == .created)
            let other = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(room: 4), token: user.token, headers: key)
            #expect(other.status == .unprocessableContent && other.envelope.errorType == "idempotency_key_reused")
            let again = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: user.token, headers: key,
                as: Stays.Reservation.self)
            #expect(again.status == .created && again.data?.id == first.data?.id)
            let list = try await client.stays(
                .get, "/appointment/\(user.guestId)", token: user.token, as: [Stays.Reservation].self)
            #expect(list.data?.count == 1)
        }
    }

    @Test(arguments: TestEngine.all)
    func anEventsSeatCheckoutKeyReusedWithOtherSeatsIs422AndARetryGetsTheFirstCheckout(engine: TestEngine)
        async throws
    {
        let app = try await EventsTestApp.make(engine)
        try await app.runWithWorker { client, worker in
            let token = try await client.eventsBuyer("keys@example.ch", worker: worker)
            let free = try await client.eventSeats().values.filter { $0.status == .available }.map(\.id).sorted()
            let key: HTTPFields = [Self.idempotencyKey: "checkout-1"]
            func checkout(_ seat: String) async throws -> TestResponse {
                try await client.send(
                    .post, "/events/api/seat-checkout",
                    json: #"{"showId": "shw_demo_1", "specificSeatIds": ["\#(seat)"]}"#, token: token, headers: key)
            }
            let first = try await checkout(free[0])
            #expect(first.status == .ok)
            let retry = try await checkout(free[0])
            #expect(retry.status == .ok && retry.body == first.body)
            let other = try await checkout(free[1])
            #expect(other.status == .unprocessableContent)
            #expect(other.errorBody?.code == "idempotency_key_reused")
            #expect(try await client.eventBookings(token).count == 1)
            #expect(try await client.eventSeats()[free[1]]?.status == .available)
        }
    }

    // MARK: PATCH with fields that cannot change

    @Test func aStaysProfilePatchWithEmailIs400NamingEmailAndChangesNothing() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: StaysFixtures.environment)
        try await app.run { client in
            let user = try await client.staysSignUp()
            let patched = try await client.stays(
                .patch, "/user/\(user.username)", json: #"{"firstName": "Ann", "email": "new@example.ch"}"#,
                token: user.token, as: Stays.ValidationFields.self)
            #expect(patched.status == .badRequest && patched.envelope.errorType == "validation")
            #expect(patched.data?.fields.keys.sorted() == ["email"])
            let profile = try await client.stays(
                .get, "/user/\(user.username)", token: user.token, as: Stays.Profile.self
            ).require()
            #expect(profile.email == "\(user.username)@example.ch" && profile.firstName == "Anna")
        }
    }

    @Test func aRidesProfilePatchWithAnUnknownFieldIs400NamingIt() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.signIn().sessionToken
            let response = try await client.send(
                .patch, "/rides/me", json: #"{"name": "Anna", "phone": "+41790000000"}"#, token: token)
            #expect(response.status == .badRequest)
            let error = try #require(response.errorBody)
            #expect(error.code == "invalid_fields" && error.error.contains("'phone'"), "\(error.error)")
        }
    }

    // MARK: 405 lists the matched route's methods

    @Test func aLiteralPathBesideAParameterListsOnlyItsOwnMethodsIn405() async throws {
        let router = Router()
        router.post("things/register") { _, _ in "registered" }
        router.get("things/:name") { _, _ in "thing" }
        router.patch("things/:name") { _, _ in "changed" }
        router.add(middleware: MethodNotAllowedMiddleware(routes: router.routes.map { ($0.path, $0.method) }))
        try await Application(router: router).test(.router) { client in
            let register = try await client.execute(uri: "/things/register", method: .delete)
            #expect(register.status == .methodNotAllowed && register.headers[.allow] == "POST")
            let thing = try await client.execute(uri: "/things/lamp", method: .delete)
            #expect(thing.status == .methodNotAllowed && thing.headers[.allow] == "GET, PATCH")
        }
    }

    @Test func theStaysRegisterPathAnswers405WithOnlyPost() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: StaysFixtures.environment)
        try await app.run { client in
            let answer = try await client.stays(.get, "/user/register")
            #expect(answer.status == .methodNotAllowed && answer.envelope.errorType == "method_not_allowed")
            let raw = try await client.send(.delete, "/stays/user/register")
            #expect(raw.headers[.allow] == "POST")
        }
    }

    // MARK: An unencoded UTF-8 query gets the vertical's JSON error body

    @Test func anUnencodedUTF8QueryGetsTheVerticalsJSONErrorBodyNotAnEmpty400() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: StaysFixtures.environment)
        let assembly = try await assemble(configuration: app.configuration, clock: app.clock, logger: TestApp.quiet)
        let application = makeApplication(assembly: assembly, configuration: app.configuration) { _ in }
        try await application.test(.live) { client in
            let port = try #require(client.port)
            for (path, envelopeKey) in [("/events/api/shows", "success"), ("/stays/rooms", "messsage")] {
                let answer = try await Self.raw(
                    Array("GET \(path)?q=z".utf8) + [0xC3, 0xBC] + Array("rich HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
                    port: port)
                #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
                let body = try #require(answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) })
                let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
                #expect(json[envelopeKey] != nil, "\(body)")
                #expect(body.contains("percent-encoded") && body.contains("invalid_request"), "\(body)")
            }
        }
    }

    /// Sends bytes as they are (no client would send raw UTF-8 in a URL) and reads until the
    /// server closes.
    static func raw(_ bytes: [UInt8], port: Int) async throws -> String {
        let received = NIOLockedValueBox(ByteBuffer())
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(received: received))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await channel.closeFuture.get() }
            group.addTask {
                try await Task.sleep(for: .seconds(30))
                throw TestFailure("the server kept the connection open after 30 s")
            }
            try await group.next()
            group.cancelAll()
        }
        return received.withLockedValue { String(buffer: $0) }
    }

    final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let received: NIOLockedValueBox<ByteBuffer>
        init(received: NIOLockedValueBox<ByteBuffer>) { self.received = received }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            _ = received.withLockedValue { $0.writeBuffer(&buffer) }
        }
    }

    // MARK: A reservation's room carries the real count of free rooms

    @Test(arguments: TestEngine.all)
    func aReservationsRoomSaysHowManyRoomsOfItsTypeAreStillFree(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: Self.stays)
        try await app.run { client in
            let user = try await client.staysSignUp()
            let search = "/rooms?dStartTime=\(StaysFixtures.monday)&dEndTime=\(StaysFixtures.wednesday)&guests=2"
            let before = try await client.stays(.get, search, token: user.token, as: [Stays.RoomHotel].self).require()
            let double = try #require(before.first { $0.id == 2 })
            let made = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: user.token, as: Stays.Reservation.self
            ).require()
            #expect(made.roomHotel.available == double.available - 1)
            let list = try await client.stays(
                .get, "/appointment/\(user.guestId)", token: user.token, as: [Stays.Reservation].self
            ).require()
            #expect(list.first?.roomHotel.available == double.available - 1)
        }
    }
}
