public import ConciergeCore
import Foundation

/// `OrderStore` in SQL both engines understand. Verticals write orders inside their own
/// transaction through `insert(_:event:in:)`.
public struct SQLOrderStore: OrderStore {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// Writes the order, its lines and its first event in the caller's transaction. False when
    /// the reference is taken; then nothing was written.
    public static func insert(_ order: Order, event: OrderEvent, in db: any SQLExecutor) async throws -> Bool {
        try await insert(order, event: event, with: [], in: db)
    }

    /// The same, with a vertical's own rows that are written only if the order is (its ride,
    /// its payment): one round trip on PostgreSQL.
    static func insert(_ order: Order, event: OrderEvent, with dependents: [InsertRows], in db: any SQLExecutor)
        async throws -> Bool
    {
        let chain = rows(of: order, event: event, with: dependents)
        return try await ChainedInsert.run(
            head: chain.head, conflictColumn: "reference", dependents: chain.dependents, in: db)
    }

    /// The order as its head row and the rows that go in only with it: its lines, its first event
    /// and the vertical's `dependents`.
    static func rows(of order: Order, event: OrderEvent, with dependents: [InsertRows])
        -> (head: InsertRows, dependents: [InsertRows])
    {
        let head = InsertRows(
            table: "orders",
            row: [
                ("id", .text(order.id)), ("vertical", .text(order.vertical)),
                ("account_id", SQLValue(order.accountID)), ("reference", .text(order.reference.code)),
                ("public_secret", .text(order.reference.secret)), ("amount_cents", SQLValue(order.amountCents)),
                ("currency", .text(order.currency)), ("state", .text(order.state)),
                ("status", .text(OrderStatus(verticalState: order.state).rawValue)),
                ("hold_id", SQLValue(order.holdID)), ("expires_at", SQLValue(order.expiresAt)),
                ("created_at", SQLValue(order.createdAt)), ("updated_at", SQLValue(order.createdAt)),
            ])
        let lines = InsertRows(
            table: "order_lines",
            columns: ["order_id", "position", "kind", "description", "quantity", "unit_amount_cents", "amount_cents"],
            rows: order.lines.enumerated().map { position, line in
                [
                    .text(order.id), SQLValue(position), .text(line.kind), .text(line.description),
                    SQLValue(line.quantity), SQLValue(line.unitAmountCents), SQLValue(line.amountCents),
                ]
            })
        return (head, [lines, rows(of: event)] + dependents)
    }

    static func rows(of event: OrderEvent) -> InsertRows {
        InsertRows(
            table: "order_events",
            row: [
                ("order_id", .text(event.orderID)), ("at", SQLValue(event.at)), ("type", .text(event.type)),
                ("actor", .text(event.actor)), ("detail", .text(event.detail)),
            ])
    }

    /// Moves the order to the owner's new state (the platform status follows it) and logs why, in
    /// the caller's transaction.
    public static func move(orderID: String, to state: String, event: OrderEvent, in db: any SQLExecutor) async throws {
        try await db.query(
            "UPDATE orders SET state = ?, status = ?, updated_at = ? WHERE id = ?",
            [.text(state), .text(OrderStatus(verticalState: state).rawValue), SQLValue(event.at), .text(orderID)])
        try await append(event, in: db)
    }

    public static func append(_ event: OrderEvent, in db: any SQLExecutor) async throws {
        try await db.query(
            "INSERT INTO order_events (order_id, at, type, actor, detail) VALUES (?, ?, ?, ?, ?)",
            [.text(event.orderID), SQLValue(event.at), .text(event.type), .text(event.actor), .text(event.detail)])
    }

    public func order(id: String) async throws -> Order? {
        try await order(where: "id = ?", .text(id))
    }

    public func order(reference: String) async throws -> Order? {
        try await order(where: "reference = ?", .text(reference))
    }

    private func order(where condition: String, _ bind: SQLValue) async throws -> Order? {
        guard let row = try await database.query("SELECT * FROM orders WHERE \(condition)", [bind]).first else {
            return nil
        }
        let id = try row.string("id")
        let lines = try await database.query(
            "SELECT * FROM order_lines WHERE order_id = ? ORDER BY position", [.text(id)]
        ).map {
            OrderLine(
                kind: try $0.string("kind"), description: try $0.string("description"),
                quantity: try $0.int("quantity"), unitAmountCents: try $0.int("unit_amount_cents"))
        }
        return Order(
            id: id, vertical: try row.string("vertical"), accountID: try row.optionalString("account_id"),
            reference: OrderReference(code: try row.string("reference"), secret: try row.string("public_secret")),
            amountCents: try row.int("amount_cents"), currency: try row.string("currency"),
            state: try row.string("state"), lines: lines, createdAt: try row.date("created_at"))
    }

    public func events(orderID: String) async throws -> [OrderEvent] {
        try await database.query("SELECT * FROM order_events WHERE order_id = ? ORDER BY seq", [.text(orderID)]).map {
            OrderEvent(
                orderID: try $0.string("order_id"), at: try $0.date("at"), type: try $0.string("type"),
                actor: try $0.string("actor"), detail: try $0.string("detail"))
        }
    }

    public func isReferenceTaken(_ code: String) async throws -> Bool {
        !(try await database.query("SELECT 1 AS taken FROM orders WHERE reference = ?", [.text(code)]).isEmpty)
    }
}
