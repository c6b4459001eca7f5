import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

/// The dev outbox is where a tester (or the benchmark) reads the codes and confirmations that
/// would have gone out.
@Suite struct DevOutboxTests {
    @Test(arguments: TestEngine.all)
    func theOutboxListsOneRecipientsMessagesWhenAsked(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine)
        try await app.run { client in
            for phone in ["+41791110001", "+41791110002", "+41791110001"] {
                app.clock.advance(by: 31)
                let sent = try await client.send(.post, "/rides/sms-code-send", json: #"{"phone": "\#(phone)"}"#)
                #expect(sent.status == .ok)
            }
            let all = try await Self.recipients(client, "/dev/outbox")
            #expect(all == ["+41791110001", "+41791110002", "+41791110001"])
            let one = try await Self.recipients(client, "/dev/outbox?to=%2B41791110001")
            #expect(one == ["+41791110001", "+41791110001"])
            let nobody = try await Self.recipients(client, "/dev/outbox?to=%2B41790000000")
            #expect(nobody.isEmpty)
        }
    }

    static func recipients(_ client: any TestClientProtocol, _ uri: String) async throws -> [String] {
        let response = try await client.send(.get, uri)
        #expect(response.status == .ok)
        let listing = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
        let messages = listing?["messages"] as? [[String: Any]] ?? []
        return messages.compactMap { $0["to"] as? String }
    }
}
