import ConciergeTestSupport
import Foundation
import Testing

/// The settings as the real `concierge` binary takes them: `serve --help` lists each one,
/// `concierge config` prints them without their secrets, a flag that is no setting stops it.
@Suite struct ConfigurationCommandLineTests {
    /// The settings table of docs/operators/configure.md (checked against `ConfigurationVariable`
    /// by another test): variable, flag and default per row.
    static func documentedSettings() throws -> [(name: String, flag: String, defaultValue: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(
            contentsOf: root.appendingPathComponent("docs/operators/configure.md"), encoding: .utf8)
        return page.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, cells[0].hasPrefix("`"), cells[1].hasPrefix("`--") else { return nil }
            return (cells[0].trimmingCharacters(in: ["`"]), cells[1].trimmingCharacters(in: ["`"]), cells[2])
        }
    }

    /// Help wraps long lines; compare with runs of whitespace as one space.
    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func serveHelpListsEverySettingWithItsVariableAndDefault() throws {
        let settings = try Self.documentedSettings()
        #expect(settings.count > 60)
        let help = try ChildProcess.run(CrashRecoveryTests.serverBinary(), ["serve", "--help"])
        #expect(help.exitStatus == 0)
        let text = Self.collapsed(help.output)
        for setting in settings {
            #expect(
                text.contains("\(setting.flag) (\(setting.name)), default \(setting.defaultValue)"),
                "serve --help lacks \(setting.flag)")
        }
    }

    @Test func configPrintsTheSettingsAndTheirSourcesWithoutSecrets() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("concierge-\(UUID().uuidString).json")
        try Data(#"{"adminToken": "admin-token-known-to-the-test-0123456789", "workerIntervalSeconds": 7}"#.utf8)
            .write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let printed = try ChildProcess.run(
            CrashRecoveryTests.serverBinary(),
            [
                "config", "--config-file", file.path, "--metrics-token", "metrics-token-known-to-the-test-012345",
                "--port=9005",
            ],
            withErrors: true)
        #expect(printed.exitStatus == 0, "\(printed.output)")
        #expect(!printed.output.contains("known-to-the-test"))
        #expect(printed.output.contains("CONCIERGE_PORT=9005  (flag --port)"))
        #expect(printed.output.contains("CONCIERGE_WORKER_INTERVAL_SECONDS=7  (config file \(file.path))"))
        #expect(printed.output.contains("CONCIERGE_ADMIN_TOKEN=<redacted>  (config file \(file.path))"))
        #expect(printed.output.contains("CONCIERGE_HOST=127.0.0.1  (default)"))
    }

    @Test func aFlagThatIsNoSettingStopsServeWithOneLine() throws {
        let refused = try ChildProcess.run(
            CrashRecoveryTests.serverBinary(), ["serve", "--prot", "9000"], withErrors: true)
        #expect(refused.exitStatus != 0)
        #expect(
            refused.output.trimmingCharacters(in: .newlines)
                == "Error: --prot: is not a setting; `concierge serve --help` lists them")
    }
}
