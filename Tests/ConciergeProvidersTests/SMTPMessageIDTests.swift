import Testing

@testable import ConciergeProviders

/// The Message-ID made from an outbox delivery key: plain RFC 5322 dot-atom-text whatever the
/// key holds, and one ID per key.
@Suite struct SMTPMessageIDTests {
    static let awkwardKeys = [
        "events:confirmed:ord_1", "events.confirmed.ord_1", ":leading", "trailing:", "double::colon", ":",
        "a~3Ab", "a:b", "café:ä", "spaces and =3A", "bkg_1:push:tok/en+x",
    ]

    @Test func theKeysColonsBecomeDots() {
        #expect(
            SMTPMessage.messageID(deliveryKey: "events:confirmed:ord_1", domain: "example.com")
                == "concierge.events.confirmed.ord_1@example.com")
    }

    @Test func everyKeyMakesAValidMsgIDWithoutQuotedPrintable() {
        for key in Self.awkwardKeys {
            let id = SMTPMessage.messageID(deliveryKey: key, domain: "mail.example.com")
            #expect(MessageIDGrammar.isMsgID("<\(id)>"), "\(key) → \(id)")
            #expect(!id.contains("="), "\(key) → \(id)")
        }
        #expect(MessageIDGrammar.isMsgID("<\(SMTPMessage.messageID(deliveryKey: nil, domain: "example.com"))>"))
    }

    @Test func differentKeysNeverShareAnID() {
        let ids = Self.awkwardKeys.map { SMTPMessage.messageID(deliveryKey: $0, domain: "example.com") }
        #expect(Set(ids).count == Self.awkwardKeys.count)
    }
}
