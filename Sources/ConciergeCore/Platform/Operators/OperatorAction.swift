public import Foundation

/// An operator's action in progress, carried as a task-local value so that its audit entry is
/// written inside the transaction that makes the action's change (the storage layer's
/// `OperatorAuditingDatabase` adds the row to the first transaction that commits while the
/// action runs). The actions run through each vertical's own service and store — a rides
/// dispatch, a door scan, an order cancel — and the task-local spares every one of them a
/// parameter that only the audit needs, while the entry still commits or rolls back with the
/// change it records.
///
/// An action that commits nothing (refused before it wrote, a scan of an unknown code) has its
/// entry written on its own afterwards, saying why.
public final class OperatorAction: @unchecked Sendable {
    @TaskLocal public static var current: OperatorAction?

    public let entry: OperatorAuditEntry
    private let lock = NSLock()
    private var state = State.open

    private enum State: Equatable {
        case open
        /// A transaction has written the entry and has not (yet) rolled back.
        case claimed(UUID)
        /// The action is over: nothing may write the entry any more.
        case closed
    }

    init(_ entry: OperatorAuditEntry) {
        self.entry = entry
    }

    /// The entry, once: for the transaction `token` to write. Nil when another transaction has
    /// written it or the action is over.
    public func claim(_ token: UUID) -> OperatorAuditEntry? {
        lock.withLock {
            guard state == .open else { return nil }
            state = .claimed(token)
            return entry
        }
    }

    /// The transaction `token` rolled back, and the entry with it: the next one may write it.
    public func release(_ token: UUID) {
        lock.withLock {
            if state == .claimed(token) { state = .open }
        }
    }

    /// Ends the action; whether a committed transaction wrote the entry.
    func finish() -> Bool {
        lock.withLock {
            defer { if state == .open { state = .closed } }
            if case .claimed = state { return true }
            return false
        }
    }

    /// Runs `body` as this operator's action. When `body` commits nothing, the entry is written
    /// on its own: with `unwritten`'s detail after an answer, or with the refusal's code after an
    /// error (which is then thrown on).
    public static func perform<T: Sendable>(
        _ entry: OperatorAuditEntry, store: any OperatorStore,
        unwritten: (T) -> String? = { _ in nil },
        _ body: () async throws -> T
    ) async throws -> T {
        let action = OperatorAction(entry)
        let result: Result<T, any Error>
        do {
            result = .success(try await $current.withValue(action) { try await body() })
        } catch {
            result = .failure(error)
        }
        if !action.finish() {
            let detail: String?
            switch result {
            case .success(let answer): detail = unwritten(answer) ?? entry.detail
            case .failure(let error as ConciergeError): detail = Self.refused(entry.detail, error.code)
            case .failure: detail = nil  // not the operator's doing; nothing happened to record
            }
            if let detail { try await store.record(entry.with(detail: detail)) }
        }
        return try result.get()
    }

    private static func refused(_ detail: String, _ code: String) -> String {
        detail.isEmpty ? "refused: \(code)" : "\(detail); refused: \(code)"
    }
}

extension OperatorAuditEntry {
    func with(detail: String) -> OperatorAuditEntry {
        OperatorAuditEntry(
            at: at, operatorAccountID: operatorAccountID, operatorName: operatorName, action: action,
            subject: subject, detail: detail)
    }
}
