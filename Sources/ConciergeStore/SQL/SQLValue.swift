public import Foundation

/// A value bound to or read from SQL. Only the types both engines agree on: text, 64-bit
/// integers, doubles and NULL. Times are stored as integer milliseconds since 1970 (UTC), which
/// compare and index the same way on SQLite and PostgreSQL.
public enum SQLValue: Sendable, Hashable {
    case text(String)
    case integer(Int64)
    case real(Double)
    case null

    public init(_ date: Date) {
        self = .integer(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    public init(_ date: Date?) {
        self = date.map { SQLValue($0) } ?? .null
    }

    public init(_ text: String?) {
        self = text.map { .text($0) } ?? .null
    }

    public init(_ number: Int) {
        self = .integer(Int64(number))
    }
}

/// The SQL flavour of an engine, for the few statements where the dialects differ.
public enum SQLDialect: Sendable {
    case sqlite
    case postgres
}

/// One result row, by column name.
public struct SQLRow: Sendable {
    public let values: [String: SQLValue]

    public init(values: [String: SQLValue]) {
        self.values = values
    }

    public func string(_ column: String) throws -> String {
        guard case .text(let value) = values[column] else { throw SQLRowError.unexpected(column, values[column]) }
        return value
    }

    public func optionalString(_ column: String) throws -> String? {
        if case .null = values[column] ?? .null { return nil }
        return try string(column)
    }

    public func int(_ column: String) throws -> Int {
        switch values[column] {
        case .integer(let value): return Int(value)
        case .real(let value): return Int(value)
        case .text(let text) where Int(text) != nil: return Int(text)!
        case let other: throw SQLRowError.unexpected(column, other)
        }
    }

    public func date(_ column: String) throws -> Date {
        Date(timeIntervalSince1970: Double(try int(column)) / 1000)
    }

    public func optionalDate(_ column: String) throws -> Date? {
        if case .null = values[column] ?? .null { return nil }
        return try date(column)
    }
}

public enum SQLRowError: Error, CustomStringConvertible {
    case unexpected(String, SQLValue?)

    public var description: String {
        switch self {
        case .unexpected(let column, let value):
            "column \(column) holds an unexpected value: \(String(describing: value))"
        }
    }
}
