import ConciergeCore
import ConciergeTestSupport
import Foundation
import Testing

@testable import ConciergeStore

/// Ride bookings that arrive together share one statement on PostgreSQL. Each keeps its own
/// outcome: a taken reference, a repeated key or a refused row is that booking's alone, and every
/// other booking lands whole.
@Suite struct BookingBatchTests {
    @Test(arguments: TestEngine.all)
    func concurrentBookingsEachLandWholeOrAloneFail(engine: TestEngine) async throws {
        let fixture = try await OrdersFixture(engine: engine)
        let taken = fixture.newBooking(key: "key-taken", answer: "taken")
        #expect(try await fixture.bookings.insertBooking(taken) == .inserted)

        var fresh = (0..<16).map { fixture.newBooking(key: "key-\($0)", answer: "answer \($0)") }
        // One reuses a reference already taken, two send the same key.
        let clash = fixture.newBooking(
            reference: OrderReference(code: taken.booking.reference, secret: "s"), key: "key-clash")
        let twinA = fixture.newBooking(key: "key-twin", answer: "twin A")
        let twinB = fixture.newBooking(key: "key-twin", answer: "twin B")
        fresh += [clash, twinA, twinB]

        let outcomes = try await Self.insertTogether(fresh, into: fixture.bookings)

        #expect(outcomes[clash.booking.id] == .referenceTaken)
        let twins = [outcomes[twinA.booking.id], outcomes[twinB.booking.id]]
        // Exactly one twin is written; the other gets the winner's answer and writes nothing.
        #expect(
            twins == [.inserted, .keyTaken(.replay(response: "twin A"))]
                || twins == [.keyTaken(.replay(response: "twin B")), .inserted])
        for new in fresh.prefix(16) { #expect(outcomes[new.booking.id] == .inserted) }
        for table in ["bookings", "orders", "order_lines", "order_events", "payments", "booking_events"] {
            #expect(try await fixture.count(table) == 1 + 16 + 1, "\(table)")
        }
        #expect(try await fixture.count("idempotency_keys_v2") == 1 + 16 + 1)
        #expect(
            try await fixture.keys.lookUp(fixture.claim("key-clash", scope: BookingService.idempotencyScope)) == nil)
        let stored = try #require(try await fixture.bookings.booking(reference: fresh[3].booking.reference))
        #expect(stored.paymentRecordID == fresh[3].payment.id)
        #expect(try await fixture.orders.order(id: fresh[3].booking.id) == fresh[3].order)
        try await fixture.close()
    }

    /// With the one statement held, the bookings behind it wait and then go in as one statement.
    /// It is refused (one of them reuses a taken reference), so each is written alone: only that
    /// one hears of it. A booking with the same key as one already in the group waits for the
    /// next statement and finds its key taken.
    @Test func waitingBookingsShareAStatementAndARefusalIsOnlyItsCausersOwn() async throws {
        guard TestEngine.all.contains(.postgres) else { return }
        let fixture = try await OrdersFixture(engine: .postgres)
        let held = HeldStatementsDatabase(fixture.database)
        let writer = ClaimedChainWriter(database: held, maxStatements: 1, maxChains: 32)
        let store = SQLBookingStore(database: held, chains: writer)

        let first = fixture.newBooking(key: "key-first", answer: "first")
        async let firstOutcome = store.insertBooking(first)
        try await waitUntil("the first statement to be held") { held.holding == 1 }

        let plain = (0..<4).map { fixture.newBooking(key: "key-\($0)", answer: "answer \($0)") }
        let clash = fixture.newBooking(
            reference: OrderReference(code: first.booking.reference, secret: "s"), key: "key-clash")
        let twin = fixture.newBooking(key: "key-0", answer: "twin")
        let behind = plain + [clash, twin]
        async let behindOutcomes = Self.insertTogether(behind, into: store)
        try await waitUntil("\(behind.count) bookings waiting") { writer.waitingCount == behind.count }
        held.open()

        #expect(try await firstOutcome == .inserted)
        let outcomes = try await behindOutcomes
        for new in plain.dropFirst() { #expect(outcomes[new.booking.id] == .inserted) }
        #expect(outcomes[clash.booking.id] == .referenceTaken)
        // Whichever of the two with key-0 lined up first is written; the other gets its answer.
        let twins = [outcomes[plain[0].booking.id], outcomes[twin.booking.id]]
        #expect(
            twins == [.inserted, .keyTaken(.replay(response: "answer 0"))]
                || twins == [.keyTaken(.replay(response: "twin")), .inserted])
        // The held statement; five together (refused); the same five alone; then the other
        // key-0 booking, whose statement finds its key taken and whose transaction reads the answer.
        #expect(held.chainStatements == [1, 5, 1, 1, 1, 1, 1, 1])
        #expect(try await fixture.count("orders") == 1 + 4)
        try await fixture.close()
    }

    /// The request that runs a group's statement is cancelled (its client went away) while the
    /// statement waits: every booking in the group is still written.
    @Test func aCancelledRequestDoesNotFailTheBookingsItsStatementCarries() async throws {
        guard TestEngine.all.contains(.postgres) else { return }
        let fixture = try await OrdersFixture(engine: .postgres)
        let held = HeldStatementsDatabase(fixture.database, holding: [1, 2])
        let writer = ClaimedChainWriter(database: held, maxStatements: 1, maxChains: 32)
        let store = SQLBookingStore(database: held, chains: writer)
        let (first, leader, carried) = (
            fixture.newBooking(key: "key-a"), fixture.newBooking(key: "key-b"), fixture.newBooking(key: "key-c")
        )

        let firstTask = Task { try await store.insertBooking(first) }
        try await waitUntil("the first statement to be held") { held.holding == 1 }
        let leaderTask = Task { try await store.insertBooking(leader) }
        try await waitUntil("one booking waiting") { writer.waitingCount == 1 }
        let carriedTask = Task { try await store.insertBooking(carried) }
        try await waitUntil("two bookings waiting") { writer.waitingCount == 2 }
        held.open()
        // The first statement's request hands the turn to the oldest waiting one, whose
        // statement carries both.
        try await waitUntil("the second statement to be held") { held.holding == 2 }
        leaderTask.cancel()
        held.open()

        #expect(try await firstTask.value == .inserted)
        #expect(try await leaderTask.value == .inserted)
        #expect(try await carriedTask.value == .inserted)
        #expect(held.chainStatements == [1, 2])
        #expect(try await fixture.count("orders") == 3)
        try await fixture.close()
    }

    @Test func chainRowsTravelAsJSONThatKeepsEveryCharacter() throws {
        let texts = [
            #"say "hi" \ bye"#, "tab\tnew\nline\r\u{1}\u{1f}", "e\u{301}\"\u{301}", "Zürich 🚕", "", "plain",
        ]
        for text in texts {
            var json = ""
            ChainJSON.appendString(text, to: &json)
            let decoded = try JSONDecoder().decode(String.self, from: Data(json.utf8))
            #expect(decoded == text)
        }
    }

    /// Inserts every booking at once; their outcomes by booking id.
    static func insertTogether(_ bookings: [NewBooking], into store: SQLBookingStore) async throws
        -> [String: BookingInsertion]
    {
        try await withThrowingTaskGroup(of: (String, BookingInsertion).self) { group in
            for new in bookings {
                group.addTask { (new.booking.id, try await store.insertBooking(new)) }
            }
            var outcomes: [String: BookingInsertion] = [:]
            for try await (id, outcome) in group { outcomes[id] = outcome }
            return outcomes
        }
    }
}

/// Holds the statements numbered in `held` (1 is the first) until `open()`, so a test can line
/// writers up behind them; counts the chains of each booking statement that runs.
final class HeldStatementsDatabase: SQLDatabase, @unchecked Sendable {
    private let base: any SQLDatabase
    private let toHold: Set<Int>
    private let lock = NSLock()
    private var statements = 0
    private var held: (number: Int, continuation: CheckedContinuation<Void, Never>)?
    private var chainCounts: [Int] = []

    init(_ base: any SQLDatabase, holding toHold: Set<Int> = [1]) {
        self.base = base
        self.toHold = toHold
    }

    var dialect: SQLDialect { base.dialect }
    /// The number of the statement held now, if any.
    var holding: Int? { lock.withLock { held?.number } }
    /// How many chains each one-statement booking write carried, in order.
    var chainStatements: [Int] { lock.withLock { chainCounts } }

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let number = lock.withLock {
            statements += 1
            if sql.hasPrefix("WITH input"), case .text(let json) = binds.first {
                chainCounts.append(json.components(separatedBy: #""h":"#).count - 1)
            }
            return statements
        }
        if toHold.contains(number) {
            await withCheckedContinuation { continuation in
                lock.withLock { held = (number, continuation) }
            }
        }
        return try await base.query(sql, binds)
    }

    /// Lets the held statement run.
    func open() {
        let continuation = lock.withLock {
            defer { held = nil }
            return held?.continuation
        }
        continuation?.resume()
    }

    func transaction<T: Sendable>(
        lockKeys: [String], _ body: @escaping @Sendable (any SQLExecutor) async throws -> T
    ) async throws -> T {
        try await base.transaction(lockKeys: lockKeys, body)
    }

    func close() async throws { try await base.close() }
}
