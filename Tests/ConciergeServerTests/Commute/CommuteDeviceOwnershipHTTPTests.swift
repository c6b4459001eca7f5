import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// A device token belongs to the account that registered it (review 2026-11-27, finding 8):
/// another account registering it gets 409 `device_token_taken` and nothing moves, until the
/// holder signs out or deletes the account. On both engines.
@Suite struct CommuteDeviceOwnershipHTTPTests {
    static let device = #"{"platform": "ios", "token": "A1B2C3D4E5F60718293A4B5C6D7E8F90", "environment": "sandbox"}"#

    @Test(arguments: TestEngine.all)
    func anotherAccountCannotTakeADeviceUntilItsHolderSignsOut(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine)
        try await app.run { client in
            let carol = try await client.commuteToken(phone: "+41791110001")
            let mallory = try await client.commuteToken(phone: "+41791110002")
            #expect(
                try await client.send(.post, "/commute/devices", json: Self.device, token: carol).status == .created)
            // The holder may register it again (a reinstall, another environment).
            #expect(
                try await client.send(.post, "/commute/devices", json: Self.device, token: carol).status == .created)

            let taken = try await client.send(.post, "/commute/devices", json: Self.device, token: mallory)
            #expect(taken.status == .conflict)
            #expect(taken.errorBody?.code == "device_token_taken" && taken.errorBody?.success == false)
            let stillCarols = try await client.send(
                .delete, "/commute/devices/a1b2c3d4e5f60718293a4b5c6d7e8f90", token: mallory)
            #expect(stillCarols.status == .notFound)

            #expect(try await client.send(.post, "/account/sign-out", token: carol).status == .ok)
            let released = try await client.send(.post, "/commute/devices", json: Self.device, token: mallory)
            #expect(released.status == .created)
            #expect(
                try await client.send(.delete, "/commute/devices/a1b2c3d4e5f60718293a4b5c6d7e8f90", token: mallory)
                    .status == .noContent)
        }
    }

    /// Signing out on the phone that registered the device releases it, though the holder is
    /// still signed in elsewhere (issue 26, item 11).
    @Test(arguments: TestEngine.all)
    func signingOutOfTheSessionThatRegisteredADeviceReleasesItWhileOtherSessionsLive(engine: TestEngine)
        async throws
    {
        let app = try await TestApp.make(engine: engine)
        try await app.run { client in
            let frankPhone = try await client.commuteToken(phone: "+41791110005")
            app.clock.advance(by: 60)  // past the SMS code's resend pause
            let frankLaptop = try await client.commuteToken(phone: "+41791110005")
            let grace = try await client.commuteToken(phone: "+41791110006")
            #expect(
                try await client.send(.post, "/commute/devices", json: Self.device, token: frankPhone).status
                    == .created)
            #expect(
                try await client.send(.post, "/commute/devices", json: Self.device, token: grace).status == .conflict)

            #expect(try await client.send(.post, "/account/sign-out", token: frankPhone).status == .ok)
            #expect(try await client.send(.get, "/commute/notifications", token: frankLaptop).status == .ok)
            #expect(
                try await client.send(.post, "/commute/devices", json: Self.device, token: grace).status == .created)
            // Now Grace's: Frank's other session cannot take it back.
            #expect(
                try await client.send(.post, "/commute/devices", json: Self.device, token: frankLaptop).status
                    == .conflict)
        }
    }

    @Test func aDeletedHoldersDeviceIsFreeForTheNextAccount() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let dave = try await client.commuteToken(phone: "+41791110003")
            let erin = try await client.commuteToken(phone: "+41791110004")
            #expect(try await client.send(.post, "/commute/devices", json: Self.device, token: dave).status == .created)
            #expect(
                try await client.send(.post, "/commute/devices", json: Self.device, token: erin).status == .conflict)
            #expect(try await client.send(.delete, "/account", token: dave).status == .ok)
            #expect(try await client.send(.post, "/commute/devices", json: Self.device, token: erin).status == .created)
        }
    }
}
