import Foundation

/// The platform's order of the owners' steps inside one account transaction.
enum AccountDataSteps {
    /// Every owner erases its part; then the messages still waiting for, or kept about, any of
    /// the person's addresses are scrubbed from the outbox and the dev outbox.
    static func erase(
        accountID: String, at date: Date, in db: any SQLExecutor,
        owners: [any AccountDataOwner] = AccountDataOwners.all
    ) async throws {
        var addresses: Set<String> = []
        for owner in owners {
            addresses.formUnion(try await owner.addresses(accountID: accountID, in: db))
        }
        for owner in owners {
            try await owner.erase(accountID: accountID, at: date, in: db)
        }
        try await scrubOutbox(to: addresses.sorted(), in: db)
    }

    /// Every owner moves its part of `from` to `into`.
    static func move(
        from: String, into: String, at date: Date, in db: any SQLExecutor,
        owners: [any AccountDataOwner] = AccountDataOwners.all
    ) async throws {
        for owner in owners {
            try await owner.move(from: from, into: into, at: date, in: db)
        }
    }

    private static func scrubOutbox(to addresses: [String], in db: any SQLExecutor) async throws {
        // In chunks, under every engine's limit of bound parameters.
        for start in stride(from: 0, to: addresses.count, by: 200) {
            let chunk = addresses[start..<min(start + 200, addresses.count)].map(SQLValue.text)
            let list = PersonalDataRows.placeholders(chunk.count)
            try await db.query(
                "DELETE FROM outbox_attachments WHERE outbox_seq IN (SELECT seq FROM notification_outbox WHERE recipient IN \(list))",
                chunk)
            try await db.query("DELETE FROM notification_outbox WHERE recipient IN \(list)", chunk)
            try await db.query("DELETE FROM outbox_messages WHERE recipient IN \(list)", chunk)
        }
    }
}
