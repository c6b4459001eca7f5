import Foundation

extension ConfigurationVariable {
    /// Scheduled backups, made by the server itself (docs/operators/backups.md).
    static let backups: [ConfigurationVariable] = [
        .init(
            name: "CONCIERGE_BACKUP_DIR", defaultValue: "(unset)",
            summary:
                "Folder the server writes scheduled backups to (with CONCIERGE_BACKUP_EVERY); see docs/operators/backups.md."
        ),
        .init(
            name: "CONCIERGE_BACKUP_EVERY", defaultValue: "off",
            summary:
                "How often the server backs up to CONCIERGE_BACKUP_DIR: `off`, or minutes, hours or days (`30m`, `6h`, `1d`)."
        ),
        .init(
            name: "CONCIERGE_BACKUP_KEEP", defaultValue: "7",
            summary: "Scheduled backups kept in CONCIERGE_BACKUP_DIR (1–1000); the oldest beyond them are deleted."),
    ]
}

/// Where and how often the server backs itself up; nil when `CONCIERGE_BACKUP_EVERY` is off.
struct BackupSchedule: Sendable, Equatable {
    var directory: URL
    var every: TimeInterval
    var keep: Int

    init(directory: URL, every: TimeInterval, keep: Int) {
        self.directory = directory
        self.every = every
        self.keep = keep
    }

    init?(environment: [String: String]) throws(ConfigurationError) {
        func value(_ name: String) -> String {
            let given = environment[name]?.trimmingCharacters(in: .whitespaces) ?? ""
            return given.isEmpty ? ConfigurationVariable.named(name)?.defaultValue ?? "" : given
        }
        let everyText = value("CONCIERGE_BACKUP_EVERY").lowercased()
        guard everyText != "off" else { return nil }
        guard let every = Self.interval(everyText) else {
            throw ConfigurationError(
                "CONCIERGE_BACKUP_EVERY", "'\(everyText)' is not `off` nor minutes, hours or days such as 30m, 6h, 1d")
        }
        let folder = value("CONCIERGE_BACKUP_DIR")
        guard folder != "(unset)" else {
            throw ConfigurationError(
                "CONCIERGE_BACKUP_DIR", "is required with CONCIERGE_BACKUP_EVERY: where backups go")
        }
        guard let keep = Int(value("CONCIERGE_BACKUP_KEEP")), (1...1000).contains(keep) else {
            throw ConfigurationError("CONCIERGE_BACKUP_KEEP", "must be a whole number from 1 to 1000")
        }
        self.init(directory: URL(fileURLWithPath: folder, isDirectory: true), every: every, keep: keep)
    }

    /// `30m`, `6h`, `1d` in seconds; at least five minutes.
    static func interval(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let number = Int(text.dropLast()), number > 0 else { return nil }
        let seconds: TimeInterval? =
            switch unit {
            case "m": TimeInterval(number) * 60
            case "h": TimeInterval(number) * 3600
            case "d": TimeInterval(number) * 86_400
            default: nil
            }
        return seconds.flatMap { $0 >= 300 ? $0 : nil }
    }
}
