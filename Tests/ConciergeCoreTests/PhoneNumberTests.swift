import ConciergeCore
import Testing

@Suite struct PhoneNumberTests {
    @Test(arguments: [
        ("+41791234567", "+41791234567"),
        ("+41 79 123 45 67", "+41791234567"),
        ("0041 79 123 45 67", "+41791234567"),
        ("+41-79-123-45-67", "+41791234567"),
        ("+41 (0)79 123 45 67", "+41791234567"),
        ("(+1) 415 555 2671", "+14155552671"),
        ("  +49.30.1234567  ", "+49301234567"),
    ])
    func writtenFormsNormaliseToE164(raw: String, expected: String) throws {
        #expect(try PhoneNumber(normalizing: raw).e164 == expected)
    }

    @Test(arguments: [
        "0791234567", "41791234567", "+41 79 abc 45 67", "+0791234567", "+123", "+1234567890123456", "",
        "++41791234567", "+41 79 123 45 67 ext 3",
    ])
    func anythingElseIsInvalidPhone(raw: String) {
        #expect(throws: ConciergeError.self) { try PhoneNumber(normalizing: raw) }
        do {
            _ = try PhoneNumber(normalizing: raw)
        } catch {
            #expect(error.code == "invalid_phone")
            #expect(error.category == .invalidInput)
        }
    }
}
