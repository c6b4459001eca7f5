public import Foundation

/// One exported value: text, a number, a time (ISO 8601) or nothing.
public enum PersonalDataValue: Sendable, Hashable, Encodable {
    case text(String)
    case number(Int64)
    case decimal(Double)
    case time(Date)
    case null

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        case .decimal(let number): try container.encode(number)
        case .time(let date): try container.encode(date.formatted(.iso8601))
        case .null: try container.encodeNil()
        }
    }
}

/// One exported row: column name → value, in the table's own column names (docs/privacy.md).
public typealias PersonalDataRow = [String: PersonalDataValue]

/// Reads rows for the export: every column but secrets, times (`…_at`, `…_by`, stored as
/// milliseconds) as ISO 8601.
enum PersonalDataRows {
    static func select(_ table: String, where condition: String, _ binds: [SQLValue], in db: any SQLExecutor)
        async throws -> [PersonalDataRow]
    {
        try await db.query("SELECT * FROM \(table) WHERE \(condition)", binds).map { row(table, $0) }
    }

    static func row(_ table: String, _ row: SQLRow) -> PersonalDataRow {
        var exported: PersonalDataRow = [:]
        for (column, value) in row.values {
            let kind = PersonalDataRegistry.kind(table: table, column: column)
            if kind == .secret || kind == nil { continue }
            let isTime = column.hasSuffix("_at") || column.hasSuffix("_by")
            switch value {
            case .text(let text): exported[column] = .text(text)
            case .integer(let number) where isTime:
                exported[column] = .time(Date(timeIntervalSince1970: Double(number) / 1000))
            case .integer(let number): exported[column] = .number(number)
            case .real(let number): exported[column] = .decimal(number)
            case .null: exported[column] = .null
            }
        }
        return exported
    }

    /// `(?, ?, ?)` for an `IN` list; `(NULL)` when empty, which matches nothing.
    static func placeholders(_ count: Int) -> String {
        count == 0 ? "(NULL)" : "(" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
    }
}
