public import ConciergeCore

/// A prepaid reservation's row, moved by the platform's lifecycle in its transaction: its
/// status, when it was paid or cancelled, and what went back or was kept. Its nights go back on
/// sale through the order's hold, never here.
public struct SQLStaysOrderRows: VerticalOrderRows {
    public var vertical: String { StaysService.vertical }

    public init() {}

    public func move(_ transition: OrderTransition, of order: LifecycleOrder, in db: any SQLExecutor) async throws
        -> String?
    {
        let to = Self.status(transition.to)
        var sets = ["status = ?"]
        var binds: [SQLValue] = [.text(to)]
        let at = transition.event.at
        if transition.paid {
            sets.append("paid_at = COALESCE(paid_at, ?)")
            binds.append(SQLValue(at))
        }
        if transition.to == .cancelled, !transition.from.contains(.cancelled) {
            sets.append("cancelled_at = ?")
            binds.append(SQLValue(at))
        }
        if let owed = transition.owedRefund {
            sets.append("refunded_cents = refunded_cents + ?")
            binds.append(SQLValue(owed.amountCents))
        }
        if let charged = transition.chargedCents {
            sets.append("charged_cents = ?")
            binds.append(SQLValue(charged))
        }
        let from = Set(transition.from.map(Self.status)).sorted()
        let moved = try await db.query(
            """
            UPDATE stays_reservations SET \(sets.joined(separator: ", "))
            WHERE order_id = ? AND status IN (\(SQLOrderLifecycleStore.marks(from.count))) RETURNING id
            """, binds + [.text(order.id)] + from.map { .text($0) })
        return moved.isEmpty ? nil : to
    }

    static func status(_ status: OrderStatus) -> String {
        status.stateName(open: StaysReservationRecord.Status.pendingPayment.rawValue)
    }
}
