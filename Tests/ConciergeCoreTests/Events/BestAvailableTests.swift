import Testing

@testable import ConciergeCore

/// Best available: adjacent seats of one row, best section and front row first, nearest the
/// middle, never leaving one empty seat between taken seats or at an aisle.
@Suite struct BestAvailableTests {
    static func row(_ letter: String, count: Int, section: String = "stalls", index: Int = 0) -> [EventSeat] {
        (1...count).map {
            EventSeat(
                id: "\(section)-\(letter)\($0)", sectionID: section, row: letter, rowIndex: index, number: $0, x: 0,
                y: 0,
                accessible: false)
        }
    }

    static func numbers(_ seats: [EventSeat]?) -> [Int] { (seats ?? []).map(\.number) }

    @Test func anEmptyRowGivesTheMiddleSeats() {
        let row = Self.row("A", count: 10)
        #expect(Self.numbers(BestAvailable.pick(quantity: 2, row: row, isFree: Set(row.map(\.id)).contains)) == [5, 6])
        #expect(
            Self.numbers(BestAvailable.pick(quantity: 4, row: row, isFree: Set(row.map(\.id)).contains)) == [
                4, 5, 6, 7,
            ])
    }

    @Test func aSingleSeatIsNeverLeftBetweenTakenSeatsOrAtAnAisle() {
        let row = Self.row("A", count: 6)
        // Seats 1–3 free, 4 taken: 2–3 would leave 1 alone at the aisle, 1–2 would leave 3 alone
        // beside the taken seat; only all three fit.
        let free = Set(["stalls-A1", "stalls-A2", "stalls-A3"])
        #expect(BestAvailable.pick(quantity: 2, row: row, isFree: free.contains) == nil)
        #expect(Self.numbers(BestAvailable.pick(quantity: 3, row: row, isFree: free.contains)) == [1, 2, 3])
        // Four free at the end (3–6): two seats leave 0 or 2 on each side, never 1.
        let end = Set(["stalls-A3", "stalls-A4", "stalls-A5", "stalls-A6"])
        let pick = Self.numbers(BestAvailable.pick(quantity: 2, row: row, isFree: end.contains))
        #expect(pick == [3, 4] || pick == [5, 6])
    }

    @Test func theBestSectionAndTheFrontRowComeFirst() {
        let stalls = EventSection(
            id: "stalls", name: "Stalls", color: "#f00", rank: 1,
            seats: Self.row("A", count: 4) + Self.row("B", count: 4, index: 1))
        let gallery = EventSection(
            id: "gallery", name: "Gallery", color: "#0f0", rank: 2, seats: Self.row("Q", count: 10, section: "gallery"))
        var free = Set((stalls.seats + gallery.seats).map(\.id))
        let first = BestAvailable.pick(quantity: 4, sections: [gallery, stalls], free: free)
        #expect(first?.map(\.id) == ["stalls-A1", "stalls-A2", "stalls-A3", "stalls-A4"])
        free.subtract(["stalls-A1", "stalls-B2"])
        let next = BestAvailable.pick(quantity: 3, sections: [gallery, stalls], free: free)
        #expect(next?.map(\.id) == ["stalls-A2", "stalls-A3", "stalls-A4"])
        free.remove("stalls-A3")
        let last = BestAvailable.pick(quantity: 3, sections: [gallery, stalls], free: free)
        #expect(last?.allSatisfy { $0.sectionID == "gallery" } == true)
        #expect(BestAvailable.pick(quantity: 11, sections: [gallery], free: free) == nil)
    }
}
