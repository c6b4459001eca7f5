import ConciergeModels
import Foundation
import Testing

@Suite struct WireDateTests {
    @Test func datesAreWrittenInUTCWithMilliseconds() {
        let date = Date(timeIntervalSince1970: 1_736_946_000.123_9)
        #expect(WireDate.string(from: date) == "2025-01-15T13:00:00.123Z")
        #expect(WireDate.string(from: Date(timeIntervalSince1970: 1_736_946_000)) == "2025-01-15T13:00:00.000Z")
        #expect(WireDate.string(from: Date(timeIntervalSince1970: 1_736_946_000.0625)) == "2025-01-15T13:00:00.062Z")
        #expect(WireDate.string(from: Date(timeIntervalSince1970: 1_736_946_000.5)) == "2025-01-15T13:00:00.500Z")
    }

    @Test(arguments: ["2025-01-15T13:00:00.000Z", "2025-01-15T13:00:00Z", "2025-01-15T14:00:00+01:00"])
    func datesAreReadWithOrWithoutFractionsAndOffsets(text: String) throws {
        let date = try #require(WireDate.date(from: text))
        #expect(date == Date(timeIntervalSince1970: 1_736_946_000))
    }

    @Test func nonsenseIsNotADate() {
        #expect(WireDate.date(from: "tomorrow") == nil)
        #expect(WireDate.date(from: "2025-13-45T99:00:00Z") == nil)
    }
}
