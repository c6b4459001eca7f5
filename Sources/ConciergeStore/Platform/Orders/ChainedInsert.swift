/// Rows for one table: its columns and one list of values per row.
struct InsertRows: Sendable {
    let table: String
    let columns: [String]
    let rows: [[SQLValue]]

    init(table: String, columns: [String], rows: [[SQLValue]]) {
        self.table = table
        self.columns = columns
        self.rows = rows
    }

    /// One row given as (column, value) pairs.
    init(table: String, row: [(String, SQLValue)]) {
        self.init(table: table, columns: row.map(\.0), rows: [row.map(\.1)])
    }

    var placeholders: String {
        rows.map { "(" + Array(repeating: "?", count: $0.count).joined(separator: ", ") + ")" }
            .joined(separator: ", ")
    }

    var binds: [SQLValue] { rows.flatMap { $0 } }
}

/// Inserts a head row unless its `conflictColumn` value is taken, and the rows that depend on it
/// only when it went in. On PostgreSQL that is one statement (data-modifying CTEs), so a whole
/// order costs one round trip inside its transaction instead of one per table; on SQLite, where
/// statements run in process, it is one statement per table.
enum ChainedInsert {
    /// False when the head's `conflictColumn` value was taken; then nothing was written.
    static func run(head: InsertRows, conflictColumn: String, dependents: [InsertRows], in db: any SQLExecutor)
        async throws -> Bool
    {
        let headSQL = """
            INSERT INTO \(head.table) (\(head.columns.joined(separator: ", "))) VALUES \(head.placeholders)
            ON CONFLICT (\(conflictColumn)) DO NOTHING RETURNING 1 AS inserted
            """
        let dependents = dependents.filter { !$0.rows.isEmpty }
        switch db.dialect {
        case .postgres:
            var sql = "WITH head AS (\(headSQL))"
            var binds = head.binds
            for (index, rows) in dependents.enumerated() {
                let columns = rows.columns.joined(separator: ", ")
                sql += """
                    , d\(index) AS (INSERT INTO \(rows.table) (\(columns))
                    SELECT * FROM (VALUES \(rows.placeholders)) AS v (\(columns)) WHERE EXISTS (SELECT 1 FROM head))
                    """
                binds += rows.binds
            }
            sql += " SELECT inserted FROM head"
            return !(try await db.query(sql, binds).isEmpty)
        case .sqlite:
            guard !(try await db.query(headSQL, head.binds).isEmpty) else { return false }
            for rows in dependents {
                try await db.query(
                    "INSERT INTO \(rows.table) (\(rows.columns.joined(separator: ", "))) VALUES \(rows.placeholders)",
                    rows.binds)
            }
            return true
        }
    }
}
