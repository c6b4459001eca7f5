import Foundation

/// One write as a claim row (an idempotency key) unless its key is taken, then a head row (an
/// order, keyed by its `id` column) and the rows that depend on it, only with the claim.
struct ClaimedChain: Sendable {
    let claim: InsertRows?
    /// The claim table's unique columns (text), e.g. `["scope", "account_id", "key"]`.
    let claimConflict: [String]
    let head: InsertRows
    let dependents: [InsertRows]
    /// The head row's `id`: what the statement answers for each chain it wrote.
    let headID: String

    init(claim: InsertRows?, claimConflict: [String], head: InsertRows, dependents: [InsertRows]) {
        guard let idColumn = head.columns.firstIndex(of: "id"), head.rows.count == 1,
            case .text(let id) = head.rows[0][idColumn]
        else { preconditionFailure("a chain's head is one row with a text id column") }
        self.claim = claim
        self.claimConflict = claimConflict
        self.head = head
        self.dependents = dependents
        self.headID = id
    }

    /// Whether `other` writes the same tables and columns (a claim or none included), which fix
    /// the statement's text: only such chains can share a statement.
    func sharesStatement(with other: ClaimedChain) -> Bool {
        claim?.table == other.claim?.table && claim?.columns == other.claim?.columns
            && head.table == other.head.table && head.columns == other.head.columns
            && dependents.map(\.table) == other.dependents.map(\.table)
            && dependents.map(\.columns) == other.dependents.map(\.columns)
    }

    /// The claim's unique key, when it has a claim: two chains with the same key may not share a
    /// statement (the second claim would be skipped quietly and both heads written).
    var claimKey: [SQLValue]? {
        claim.map { claim in claimConflict.map { claim.rows[0][claim.columns.firstIndex(of: $0)!] } }
    }
}

/// Whole writes as one PostgreSQL statement, which is its own transaction: every chain's claim,
/// head and dependents. One round trip and one durable commit for all of them, where BEGIN, the
/// claim, the rows and COMMIT took four round trips per chain.
///
/// The rows travel as one `jsonb` parameter, so the statement's text depends only on the tables
/// written, never on how many chains there are or which values are NULL: PostgreSQL prepares and
/// plans it once per connection. `jsonb_populate_record` types each value by its column.
///
/// A head whose unique value is taken (a reference drawn at random), or any other refused row,
/// fails the statement, which undoes every claim with it: there is no conditional way to take
/// back a row a sibling CTE wrote. The caller decides what to retry (`ClaimedChainWriter`).
enum ClaimedChainStatement {
    enum Outcome: Equatable, Sendable {
        case written
        /// The claim's key was taken: nothing was written.
        case claimTaken
        /// The head's unique value was taken: nothing was written.
        case headTaken
    }

    /// Writes `chains` (all of one shape, no two with the same claim key) and answers, in order,
    /// which were written and which found their key taken. Throws when the statement is refused.
    /// PostgreSQL only (SQLite has no data-modifying CTEs; its transactions run in process,
    /// where statements are cheap).
    static func run(_ chains: [ClaimedChain], on database: any SQLDatabase) async throws -> [Outcome] {
        precondition(database.dialect == .postgres, "one-statement chains need data-modifying CTEs")
        guard let first = chains.first else { return [] }
        precondition(chains.allSatisfy { $0.sharesStatement(with: first) }, "one statement writes chains of one shape")
        let rows = try await database.preparedQuery(sql(for: first), [.text(try ChainJSON.encode(chains))])
        var written = Set<String>()
        for row in rows { written.insert(try row.string("id")) }
        return try chains.map { chain in
            if written.contains(chain.headID) { return .written }
            guard chain.claim != nil else { throw UnwrittenChain(headID: chain.headID) }
            return .claimTaken
        }
    }

    /// The statement for chains shaped like `chain`.
    private static func sql(for chain: ClaimedChain) -> String {
        var sql = "WITH input AS MATERIALIZED (SELECT e FROM jsonb_array_elements(?::jsonb) AS e)"
        var headCondition = ""
        if let claim = chain.claim {
            let key = chain.claimConflict.joined(separator: ", ")
            sql +=
                ", claim AS (\(insert(claim, from: "jsonb_populate_record", at: "'c'")) WHERE input.e->'c' IS NOT NULL"
            sql += " ON CONFLICT (\(key)) DO NOTHING RETURNING \(key))"
            let given = chain.claimConflict.map { "input.e->'c'->>'\($0)'" }.joined(separator: ", ")
            headCondition = " WHERE input.e->'c' IS NULL OR (\(given)) IN (SELECT \(key) FROM claim)"
        }
        sql +=
            ", head AS (\(insert(chain.head, from: "jsonb_populate_record", at: "'h'"))\(headCondition) RETURNING id)"
        for (index, rows) in chain.dependents.enumerated() {
            sql += ", d\(index) AS (\(insert(rows, from: "jsonb_populate_recordset", at: "'d'->\(index)"))"
            sql += " WHERE input.e->'h'->>'id' IN (SELECT id FROM head))"
        }
        return sql + " SELECT id FROM head"
    }

    /// `INSERT INTO table (columns) SELECT r.columns FROM input, <function>(NULL::table, e-><path>)`.
    private static func insert(_ rows: InsertRows, from function: String, at path: String) -> String {
        let columns = rows.columns.joined(separator: ", ")
        return """
            INSERT INTO \(rows.table) (\(columns)) SELECT \(rows.columns.map { "r.\($0)" }.joined(separator: ", ")) \
            FROM input, LATERAL \(function)(NULL::\(rows.table), input.e->\(path)) AS r
            """
    }

    /// A chain without a claim that the statement did not write: it cannot happen unless the
    /// statement is wrong, so it is an error rather than a guess.
    struct UnwrittenChain: Error, CustomStringConvertible {
        let headID: String
        var description: String { "the chain statement neither wrote \(headID) nor refused it" }
    }
}

/// The statement's one parameter: per chain `{"c": claim row, "h": head row, "d": [[rows of each
/// dependent table]]}`, each row an object of column → value.
///
/// Written by hand: `JSONEncoder` over the same rows was 6.6 % of all CPU samples of the `book`
/// benchmark on PostgreSQL (about 50 µs a booking); the rows hold only text, integers, doubles
/// and NULL, which need no more than string escaping.
enum ChainJSON {
    static func encode(_ chains: [ClaimedChain]) throws -> String {
        var json = "["
        // A booking's rows come to about 2 KB: reserve once rather than grow step by step.
        json.reserveCapacity(chains.count * 2_560)
        for (index, chain) in chains.enumerated() {
            if index > 0 { json += "," }
            json += "{"
            if let claim = chain.claim {
                json += #""c":"#
                try append(claim.columns, claim.rows[0], to: &json)
                json += ","
            }
            json += #""h":"#
            try append(chain.head.columns, chain.head.rows[0], to: &json)
            json += #","d":["#
            for (table, rows) in chain.dependents.enumerated() {
                if table > 0 { json += "," }
                json += "["
                for (position, row) in rows.rows.enumerated() {
                    if position > 0 { json += "," }
                    try append(rows.columns, row, to: &json)
                }
                json += "]"
            }
            json += "]}"
        }
        return json + "]"
    }

    /// One row as an object of column → value.
    private static func append(_ columns: [String], _ values: [SQLValue], to json: inout String) throws {
        json += "{"
        for (index, (column, value)) in zip(columns, values).enumerated() {
            if index > 0 { json += "," }
            appendString(column, to: &json)
            json += ":"
            switch value {
            case .text(let text): appendString(text, to: &json)
            case .integer(let number): json += String(number)
            case .real(let number):
                guard number.isFinite else { throw NotRepresentable(column: column, value: number) }
                json += "\(number)"
            case .null: json += "null"
            }
        }
        json += "}"
    }

    /// `text` as a JSON string (RFC 8259 §7): quote, backslash and control characters escaped.
    /// Every byte it escapes is ASCII, so the runs between them are whole UTF-8.
    static func appendString(_ text: String, to json: inout String) {
        json += "\""
        // Nearly every value needs no escape: copy it whole.
        guard text.utf8.contains(where: needsEscape) else {
            json += text
            json += "\""
            return
        }
        var plainFrom = text.utf8.startIndex
        for index in text.utf8.indices {
            let byte = text.utf8[index]
            guard needsEscape(byte) else { continue }
            json += String(decoding: text.utf8[plainFrom..<index], as: UTF8.self)
            plainFrom = text.utf8.index(after: index)
            switch byte {
            case UInt8(ascii: "\""): json += "\\\""
            case UInt8(ascii: "\\"): json += "\\\\"
            case UInt8(ascii: "\n"): json += "\\n"
            case UInt8(ascii: "\r"): json += "\\r"
            case UInt8(ascii: "\t"): json += "\\t"
            default: json += "\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
            }
        }
        json += String(decoding: text.utf8[plainFrom...], as: UTF8.self)
        json += "\""
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// A double JSON cannot carry (NaN or an infinity).
    struct NotRepresentable: Error, CustomStringConvertible {
        let column: String
        let value: Double
        var description: String { "\(column) is \(value), which JSON cannot carry" }
    }
}
