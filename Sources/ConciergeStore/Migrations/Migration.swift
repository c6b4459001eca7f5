/// One versioned schema change. Statements are portable SQL unless an engine needs its own.
public struct Migration: Sendable {
    public enum Statement: Sendable {
        case portable(String)
        case perDialect(sqlite: String, postgres: String)

        func sql(for dialect: SQLDialect) -> String {
            switch self {
            case .portable(let sql): sql
            case .perDialect(let sqlite, let postgres): dialect == .sqlite ? sqlite : postgres
            }
        }
    }

    public let version: Int
    public let name: String
    public let statements: [Statement]
}
