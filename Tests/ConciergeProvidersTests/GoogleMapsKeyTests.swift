import ConciergeProviders
import Testing

@Suite struct GoogleMapsKeyTests {
    @Test func keyNeverPrintsItsValue() {
        var dumped = ""
        dump(GoogleTestValues.key, to: &dumped)
        for text in [
            "\(GoogleTestValues.key)", String(reflecting: GoogleTestValues.key), dumped,
            "\([GoogleTestValues.key])", "\(Optional(GoogleTestValues.key) as Any)",
        ] {
            #expect(!text.contains(GoogleTestValues.apiKey))
            #expect(!text.contains("AIza"))
        }
        #expect("\(GoogleTestValues.key)" == "GoogleMapsKey(redacted)")
    }

    @Test func keyDropsSurroundingWhitespace() {
        #expect(GoogleMapsKey("  \(GoogleTestValues.apiKey)\n").value == GoogleTestValues.apiKey)
    }
}
