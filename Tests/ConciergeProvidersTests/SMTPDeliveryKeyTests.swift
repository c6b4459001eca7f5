import ConciergeCore
import ConciergeProviders
import Foundation
import Testing

/// A notification sent again after a crash (sent, killed before it was marked sent) carries the
/// same Message-ID, so receivers that drop duplicate Message-IDs show it once.
@Suite struct SMTPDeliveryKeyTests {
    @Test func theDeliveryKeyMakesAStableMessageID() async throws {
        let server = try await SMTPTestServer.start()
        defer { Task { try? await server.stop() } }
        let sender = try SMTPEmailSender(
            smtpURL: "smtp://localhost:\(server.port)?from=rides@example.com",
            // A generous time-out: TLS in a debug build on a loaded machine can take seconds.
            trustRootsPEM: Array(SMTPTestServer.certificatePEM.utf8), timeout: .seconds(300))
        let keys = [
            "bkg_1:confirmation", "bkg_1:confirmation", "bkg_1.confirmation", nil, nil, "events:confirmed:ord_7",
        ]
        for key in keys {
            try await sender.sendEmail(
                to: "guest@example.org", subject: "Your ride VRM-100001 is confirmed", textBody: "Confirmed.",
                deliveryKey: key)
        }
        let ids = try server.messages.map { try #require(SMTPEmailSenderTests.split($0.data).0["Message-ID"]) }
        #expect(ids.count == 6)
        #expect(ids[0] == "<concierge.bkg_1.confirmation@example.com>")
        #expect(ids[1] == ids[0])
        // Keys that differ only in a character a Message-ID cannot hold still differ.
        #expect(ids[2] == "<concierge.bkg_1~2Econfirmation@example.com>")
        // Without a key every email gets a fresh one.
        #expect(Set(ids[3...4]).count == 2 && !ids[3...4].contains(ids[0]))
        #expect(ids[5] == "<concierge.events.confirmed.ord_7@example.com>")
        // Every one is an RFC 5322 msg-id as sent, with no quoted-printable `=XX` leaking in.
        for id in ids {
            #expect(MessageIDGrammar.isMsgID(id), "\(id) is not an RFC 5322 msg-id")
            #expect(!id.contains("="), "\(id) reads like quoted-printable")
        }
    }
}
