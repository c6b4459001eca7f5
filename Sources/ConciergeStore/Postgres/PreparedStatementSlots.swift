import Foundation
import Logging
import PostgresNIO

/// Named prepared statements for SQL known only at run time. PostgresNIO prepares a statement per
/// connection by its type's static `name`, `sql` and bind types, so each of a fixed number of
/// slot types takes the first statement (SQL text plus bind types, so a NULL in another place is
/// another statement) that asks for it, for the life
/// of the process; later statements run unnamed. Only the hot statements ask (`preparedQuery`):
/// parsing and planning the booking statement afresh was most of PostgreSQL's work per booking.
enum PreparedStatementSlots {
    struct Key: Hashable {
        let sql: String
        let types: [PostgresDataType]
    }

    private final class Table: @unchecked Sendable {
        let lock = NSLock()
        var slots: [Key: Int] = [:]
        var keys: [Key] = []
    }

    private static let table = Table()

    /// The slot `key` has or now gets; nil when every slot is taken by another statement.
    static func slot(for key: Key) -> Int? {
        table.lock.withLock {
            if let slot = table.slots[key] { return slot }
            guard table.keys.count < runners.count else { return nil }
            table.keys.append(key)
            table.slots[key] = table.keys.count - 1
            return table.keys.count - 1
        }
    }

    static func key(ofSlot slot: Int) -> Key {
        table.lock.withLock { table.keys[slot] }
    }

    /// Runs slot `slot`'s statement with `bindings` on a pooled connection.
    typealias Runner = @Sendable (PostgresClient, PostgresBindings, Logger) async throws -> [PostgresRow]

    static let runners: [Runner] = [
        run(Slot0.self), run(Slot1.self), run(Slot2.self), run(Slot3.self),
        run(Slot4.self), run(Slot5.self), run(Slot6.self), run(Slot7.self),
        run(Slot8.self), run(Slot9.self), run(Slot10.self), run(Slot11.self),
        run(Slot12.self), run(Slot13.self), run(Slot14.self), run(Slot15.self),
    ]

    private static func run<S: SlotIndex>(_: S.Type) -> Runner {
        { client, bindings, logger in
            var rows: [PostgresRow] = []
            for try await row in try await client.execute(SlotStatement<S>(bindings: bindings), logger: logger) {
                rows.append(row)
            }
            return rows
        }
    }
}

protocol SlotIndex: Sendable { static var index: Int { get } }
enum Slot0: SlotIndex { static let index = 0 }
enum Slot1: SlotIndex { static let index = 1 }
enum Slot2: SlotIndex { static let index = 2 }
enum Slot3: SlotIndex { static let index = 3 }
enum Slot4: SlotIndex { static let index = 4 }
enum Slot5: SlotIndex { static let index = 5 }
enum Slot6: SlotIndex { static let index = 6 }
enum Slot7: SlotIndex { static let index = 7 }
enum Slot8: SlotIndex { static let index = 8 }
enum Slot9: SlotIndex { static let index = 9 }
enum Slot10: SlotIndex { static let index = 10 }
enum Slot11: SlotIndex { static let index = 11 }
enum Slot12: SlotIndex { static let index = 12 }
enum Slot13: SlotIndex { static let index = 13 }
enum Slot14: SlotIndex { static let index = 14 }
enum Slot15: SlotIndex { static let index = 15 }

/// The statement in slot `S`: its text and bind types are the slot's key, fixed once taken.
struct SlotStatement<S: SlotIndex>: PostgresPreparedStatement {
    typealias Row = PostgresRow
    static var name: String { "concierge_\(S.index)" }
    static var sql: String { PreparedStatementSlots.key(ofSlot: S.index).sql }
    static var bindingDataTypes: [PostgresDataType] { PreparedStatementSlots.key(ofSlot: S.index).types }

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}
