import ConciergeServer
import Foundation
import Testing

@Suite struct ConfigurationTests {
    @Test func theDefaultsAreDevModeOnSQLiteWithTheOutbox() throws {
        let configuration = try ServerConfiguration(environment: [:])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.mode == .dev)
        #expect(configuration.storage == .sqlite(path: "./concierge.sqlite"))
        #expect(configuration.publicURL == "http://127.0.0.1:8080")
        #expect(configuration.sms == .devOutbox)
        #expect(configuration.autoMigrate)
        #expect(configuration.signIn.codeLifetime == 600)
    }

    @Test func databaseURLWinsOverSQLite() throws {
        let configuration = try ServerConfiguration(environment: [
            "DATABASE_URL": "postgres://app:s%40cret@db.internal:6543/concierge",
            "CONCIERGE_SQLITE_PATH": "/tmp/x.sqlite",
        ])
        guard case .postgres(let url) = configuration.storage else {
            Issue.record("expected PostgreSQL")
            return
        }
        #expect(url.host == "db.internal")
        #expect(url.port == 6543)
        #expect(url.password == "s@cret")
        #expect(url.database == "concierge")
    }

    static let malformed: [(String, String, String)] = [
        ("CONCIERGE_PORT", "eighty", "not a whole number"),
        ("CONCIERGE_PORT", "70000", "outside"),
        ("CONCIERGE_MODE", "staging", "dev, production"),
        ("CONCIERGE_SQLITE_SYNCHRONOUS", "sometimes", "full, normal"),
        ("DATABASE_URL", "mysql://localhost/db", "postgres://"),
        ("DATABASE_URL", "postgres://localhost", "names no user"),
        ("CONCIERGE_SECRET", "short", "at least 32"),
        ("CONCIERGE_PUBLIC_URL", "rides.example.com", "http(s) URL"),
        ("CONCIERGE_LOG_LEVEL", "loud", "trace"),
        ("CONCIERGE_AUTO_MIGRATE", "maybe", "true or false"),
        ("CONCIERGE_OTP_MAX_ATTEMPTS", "0", "outside"),
        ("TWILIO_ACCOUNT_SID", "nope", "starting with AC"),
        ("CONCIERGE_TARIFF_PATH", "/nonexistent/tariff.json", "tariff.json"),
    ]

    @Test(arguments: malformed)
    func aMalformedValueNamesTheVariableAndTheProblem(variable: String, value: String, problem: String) {
        #expect {
            try ServerConfiguration(environment: [variable: value])
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.variable == variable && error.description.contains(problem)
        }
    }

    @Test func productionRefusesToStartWithoutItsSecrets() {
        #expect(
            throws: ConfigurationError(
                "CONCIERGE_SECRET", "is required in production; generate one with `openssl rand -base64 48`")
        ) {
            try ServerConfiguration(environment: ["CONCIERGE_MODE": "production"])
        }
        #expect {
            try ServerConfiguration(environment: [
                "CONCIERGE_MODE": "production", "CONCIERGE_SECRET": String(repeating: "k", count: 32),
            ])
        } throws: { ($0 as? ConfigurationError)?.variable == "TWILIO_ACCOUNT_SID" }
    }

    @Test func twilioVerifyIsChosenWhenItsServiceIsSet() throws {
        let configuration = try ServerConfiguration(environment: [
            "TWILIO_ACCOUNT_SID": "AC" + String(repeating: "0", count: 32), "TWILIO_AUTH_TOKEN": "t",
            "TWILIO_VERIFY_SERVICE_SID": "VA" + String(repeating: "f", count: 32),
        ])
        guard case .twilioVerify = configuration.sms else {
            Issue.record("expected Twilio Verify")
            return
        }
    }

    @Test func everyVariableHasAFlag() {
        let flags = ConfigurationVariable.all.map(\.flag)
        #expect(Set(flags).count == flags.count)
        #expect(flags.contains("--public-url"))
        #expect(flags.contains("--database-url"))
    }

    /// The operators' settings table (`python3 scripts/readme-config-table.py` writes it).
    @Test func theConfigureDocListsEveryVariableWithItsFlagAndDefault() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(
            contentsOf: root.appendingPathComponent("docs/operators/configure.md"), encoding: .utf8)
        for variable in ConfigurationVariable.all {
            #expect(
                page.contains("| `\(variable.name)` | `\(variable.flag)` | \(variable.defaultValue) |"),
                "docs/operators/configure.md lacks \(variable.name)")
        }
    }
}
