import Foundation

/// The expand/contract rule, read from a migration's SQL. During a rolling upgrade the previous
/// release keeps serving on the migrated schema, so a migration may only add what it can ignore:
/// tables, nullable columns or columns with a default, indexes. Anything else here is a
/// contract step: it removes or changes what the previous release may still read or write, or
/// holds a lock for as long as it rewrites a table. A contract step needs its own release (once
/// nothing still running reads the old shape) and an entry in `MigrationLint.exceptions`.
public enum MigrationLint {
    public enum Rule: String, Sendable, CaseIterable {
        case dropsTable = "drops a table"
        case dropsColumn = "drops a column"
        case renames = "renames a table or column"
        case addsRequiredColumn = "adds a NOT NULL column without a default"
        case tightensColumn = "makes an existing column NOT NULL"
        case changesColumnType = "changes a column's type (rewrites the table)"
        case addsConstraint = "adds a constraint to an existing table (scans it; refuses the old release's writes)"
        case rebuildsTable = "rebuilds a table under a new name (SQLite's copy-and-rename)"
        case rewritesEveryRow = "updates every row of an existing table in the migration's transaction"
    }

    /// One statement of one migration that breaks a rule.
    public struct Finding: Sendable, Equatable, CustomStringConvertible {
        public let module: String
        public let version: Int
        public let rule: Rule
        public let statement: String

        public var description: String { "\(module)/\(version) \(rule.rawValue): \(statement)" }
    }

    /// What breaks the rule in `migration`; empty for an expand-only migration. Both dialects'
    /// SQL is read. A table the migration itself creates may be filled and altered freely.
    public static func findings(in migration: Migration, module: String) -> [Finding] {
        var created: Set<String> = []
        var found: [Finding] = []
        for statement in migration.statements {
            for sql in Set(SQLDialect.allLinted.map { statement.sql(for: $0) }) {
                let text = normalized(sql)
                if let table = firstMatch(#"^CREATE TABLE (?:IF NOT EXISTS )?(\w+)"#, in: text) {
                    created.insert(table)
                }
                for rule in rules(of: text, created: created) where !found.contains(where: { $0.rule == rule }) {
                    found.append(Finding(module: module, version: migration.version, rule: rule, statement: text))
                }
            }
        }
        return found
    }

    /// Every finding in `groups` that `exceptions` does not name.
    public static func violations(
        in groups: [MigrationGroup], exceptions: [MigrationLintException] = MigrationLint.exceptions
    ) -> [Finding] {
        groups.flatMap { group in
            group.migrations.flatMap { findings(in: $0, module: group.module) }
        }.filter { finding in
            !exceptions.contains { $0.module == finding.module && $0.version == finding.version }
        }
    }

    /// True when `migration` only adds: instances of the previous release keep working on it.
    public static func isExpandOnly(_ migration: Migration, module: String) -> Bool {
        findings(in: migration, module: module).isEmpty
    }

    static func rules(of text: String, created: Set<String>) -> [Rule] {
        var rules: [Rule] = []
        if text.hasPrefix("DROP TABLE") { rules.append(.dropsTable) }
        if text.contains(" RENAME ") { rules.append(.renames) }
        if let table = firstMatch(#"^ALTER TABLE (?:IF EXISTS )?(?:ONLY )?(\w+)"#, in: text), !created.contains(table) {
            if text.contains(" DROP COLUMN ") || matches(#" DROP (?!CONSTRAINT|DEFAULT|NOT NULL)\w+"#, text) {
                rules.append(.dropsColumn)
            }
            if text.contains(" ADD COLUMN ")
                || matches(#" ADD (?!CONSTRAINT|PRIMARY|UNIQUE|CHECK|FOREIGN)\w+ \w+"#, text),
                text.contains(" NOT NULL"), !text.contains(" DEFAULT ")
            {
                rules.append(.addsRequiredColumn)
            }
            if text.contains(" SET NOT NULL") { rules.append(.tightensColumn) }
            if matches(#" ALTER (?:COLUMN )?\w+ (?:SET DATA )?TYPE "#, text) { rules.append(.changesColumnType) }
            if text.contains(" ADD CONSTRAINT ") || matches(#" ADD (?:PRIMARY KEY|UNIQUE|CHECK|FOREIGN KEY)"#, text) {
                rules.append(.addsConstraint)
            }
        }
        if let table = firstMatch(#"^CREATE TABLE (?:IF NOT EXISTS )?(\w+)"#, in: text),
            matches(#"_(?:NEW|OLD|TMP|TEMP|COPY|V\d+)$"#, table)
        {
            rules.append(.rebuildsTable)
        }
        if let table = firstMatch(#"^UPDATE (\w+) SET "#, in: text), !created.contains(table),
            !outsideParentheses(text).contains(" WHERE ")
        {
            rules.append(.rewritesEveryRow)
        }
        return rules
    }

    /// Upper case, one space between words, no comments: the rules read words, not layout.
    static func normalized(_ sql: String) -> String {
        let withoutComments = sql.split(separator: "\n").map { line in
            line.range(of: "--").map { line[..<$0.lowerBound] } ?? line
        }.joined(separator: " ")
        return withoutComments.uppercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
    }

    /// `text` without what parentheses enclose: a subquery's WHERE does not bound the UPDATE.
    static func outsideParentheses(_ text: String) -> String {
        var depth = 0
        var kept = ""
        for character in text {
            if character == "(" { depth += 1 }
            if depth == 0 { kept.append(character) }
            if character == ")" { depth = max(0, depth - 1) }
        }
        return kept
    }

    private static func firstMatch(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }

    private static func matches(_ pattern: String, _ text: String) -> Bool {
        (try? NSRegularExpression(pattern: pattern))?.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
            != nil
    }
}

extension SQLDialect {
    /// The dialects a migration's statements are linted in.
    static let allLinted: [SQLDialect] = [.sqlite, .postgres]
}
