/// A whole write as one PostgreSQL statement, which is its own transaction: a claim row (an
/// idempotency key) unless its key is taken, then the head row (an order) and its dependents only
/// with the claim. One round trip and one durable commit, where BEGIN, the claim, the rows and
/// COMMIT took four round trips.
///
/// A head whose unique value is taken (a reference drawn at random) fails the statement, which
/// undoes the claim with it: there is no conditional way to take back a row a sibling CTE wrote.
enum ClaimedChainStatement {
    enum Outcome: Equatable {
        case written
        /// The claim's key was taken: nothing was written.
        case claimTaken
        /// The head's unique value was taken: nothing was written.
        case headTaken
    }

    /// PostgreSQL only (SQLite has no data-modifying CTEs; its transactions run in process, where
    /// statements are cheap).
    static func run(
        claim: InsertRows?, claimConflict: String, head: InsertRows, dependents: [InsertRows],
        on database: any SQLDatabase
    ) async throws -> Outcome {
        precondition(database.dialect == .postgres, "one-statement chains need data-modifying CTEs")
        var sql = "WITH "
        var binds: [SQLValue] = []
        var headCondition = ""
        if let claim {
            sql += """
                claim AS (INSERT INTO \(claim.table) (\(claim.columns.joined(separator: ", "))) \
                VALUES \(claim.placeholders) ON CONFLICT (\(claimConflict)) DO NOTHING RETURNING 1 AS claimed), 
                """
            binds += claim.binds
            headCondition = " WHERE EXISTS (SELECT 1 FROM claim)"
        }
        let headColumns = head.columns.joined(separator: ", ")
        sql += """
            head AS (INSERT INTO \(head.table) (\(headColumns)) \
            SELECT * FROM (VALUES \(head.placeholders)) AS v (\(headColumns))\(headCondition) RETURNING 1 AS inserted)
            """
        binds += head.binds
        for (index, rows) in dependents.enumerated() where !rows.rows.isEmpty {
            let columns = rows.columns.joined(separator: ", ")
            sql += """
                , d\(index) AS (INSERT INTO \(rows.table) (\(columns)) \
                SELECT * FROM (VALUES \(rows.placeholders)) AS v (\(columns)) WHERE EXISTS (SELECT 1 FROM head))
                """
            binds += rows.binds
        }
        sql += " SELECT inserted FROM head"
        do {
            return try await database.preparedQuery(sql, binds).isEmpty ? .claimTaken : .written
        } catch let violation as SQLUniqueViolation where violation.table == head.table {
            return .headTaken
        }
    }
}
