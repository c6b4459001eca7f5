import ConciergeServer
import Foundation
import Testing

/// Where settings come from (flags, the environment, `NAME_FILE`, the config file, defaults) and
/// how each source is refused when it is wrong.
/// (Each test needs macOS 15, swift-configuration's floor; a suite cannot say so itself.)
@Suite struct ConfigurationSourcesTests {
    /// A config file holding `json`, removed after `body`.
    static func withConfigFile<T>(_ json: String, _ body: (String) async throws -> T) async throws -> T {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("concierge-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await body(file.path)
    }

    @available(macOS 15, *)
    static func setting(_ name: String, in settings: EffectiveSettings) -> EffectiveSettings.Setting? {
        settings.settings.first { $0.variable.name == name }
    }

    @available(macOS 15, *)
    @Test func flagsBeatTheEnvironmentWhichBeatsTheFileWhichBeatsTheDefaults() async throws {
        try await Self.withConfigFile(#"{"port": 7000, "logLevel": "error", "workerIntervalSeconds": 9}"#) { path in
            let settings = try await EffectiveSettings.load(
                arguments: ["--port", "9000"],
                environment: [
                    "CONCIERGE_CONFIG_FILE": path, "CONCIERGE_PORT": "8000", "CONCIERGE_LOG_LEVEL": "debug",
                ])
            let configuration = try settings.configuration()
            #expect(configuration.port == 9000)
            #expect(configuration.logLevel == .debug)
            #expect(configuration.workerInterval == 9)
            #expect(configuration.host == "127.0.0.1")
            #expect(Self.setting("CONCIERGE_PORT", in: settings)?.source == .flag("--port"))
            #expect(Self.setting("CONCIERGE_LOG_LEVEL", in: settings)?.source == .environment)
            #expect(Self.setting("CONCIERGE_WORKER_INTERVAL_SECONDS", in: settings)?.source == .configFile(path: path))
            #expect(Self.setting("CONCIERGE_HOST", in: settings)?.source == .defaultValue)
        }
    }

    @available(macOS 15, *)
    @Test func theConfigFileCanBeNamedByAFlagAndHoldsNumbersBooleansAndLists() async throws {
        try await Self.withConfigFile(
            #"{"autoMigrate": false, "smsAllowedCountries": ["CH", "LI"], "httpIdleTimeoutSeconds": 12}"#
        ) { path in
            let settings = try await EffectiveSettings.load(arguments: ["--config-file=\(path)"], environment: [:])
            let configuration = try settings.configuration()
            #expect(!configuration.autoMigrate)
            #expect(configuration.signIn.smsRegions == ["CH", "LI"])
            #expect(configuration.httpIdleTimeout == 12)
        }
    }

    @available(macOS 15, *)
    @Test func aFlagValueWithCommasStaysOneValue() async throws {
        let settings = try await EffectiveSettings.load(
            arguments: ["--sms-allowed-countries", "CH,DE", "--host=::1"], environment: [:])
        #expect(settings.environment["CONCIERGE_SMS_ALLOWED_COUNTRIES"] == "CH,DE")
        #expect(settings.environment["CONCIERGE_HOST"] == "::1")
    }

    /// Every variable is found under its name in the environment, its flag on the command line
    /// and its key in the file: the library's key encoders agree with `name`, `flag` and `key`.
    @available(macOS 15, *)
    @Test func everyVariableIsReadFromEachSourceUnderItsOwnName() async throws {
        // The config file's own variable is read the same way, but must name a file.
        let variables = ConfigurationVariable.all.filter { $0.name != "CONCIERGE_CONFIG_FILE" }
        let flags = try await EffectiveSettings.load(
            arguments: variables.flatMap { [$0.flag, "flag-\($0.name)"] }, environment: [:])
        let environment = try await EffectiveSettings.load(
            arguments: [], environment: Dictionary(uniqueKeysWithValues: variables.map { ($0.name, "env-\($0.name)") }))
        let keys = variables
        let json = try JSONSerialization.data(
            withJSONObject: Dictionary(uniqueKeysWithValues: keys.map { ($0.key, "file-\($0.name)") }))
        try await Self.withConfigFile(String(decoding: json, as: UTF8.self)) { path in
            let file = try await EffectiveSettings.load(arguments: ["--config-file", path], environment: [:])
            for variable in keys {
                #expect(file.environment[variable.name] == "file-\(variable.name)", "\(variable.key)")
            }
        }
        for variable in variables {
            #expect(flags.environment[variable.name] == "flag-\(variable.name)", "\(variable.flag)")
            #expect(environment.environment[variable.name] == "env-\(variable.name)", "\(variable.name)")
        }
    }

    @available(macOS 15, *)
    @Test func aSecretComesFromTheFileItsFileVariableNamesUnlessTheVariableIsSet() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID().uuidString)")
        try Data("admin-token-from-a-mounted-secret-0123\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = try await EffectiveSettings.load(
            arguments: [], environment: ["CONCIERGE_ADMIN_TOKEN_FILE": file.path])
        #expect(fromFile.environment["CONCIERGE_ADMIN_TOKEN"] == "admin-token-from-a-mounted-secret-0123")
        #expect(
            Self.setting("CONCIERGE_ADMIN_TOKEN", in: fromFile)?.source
                == .secretFile(variable: "CONCIERGE_ADMIN_TOKEN_FILE", path: file.path))
        let set = try await EffectiveSettings.load(
            arguments: [], environment: ["CONCIERGE_ADMIN_TOKEN_FILE": file.path, "CONCIERGE_ADMIN_TOKEN": "direct"])
        #expect(set.environment["CONCIERGE_ADMIN_TOKEN"] == "direct")
    }

    @available(macOS 15, *)
    @Test func productionRefusesEverySecretAsAFlagEvenWhenTheFileSetsTheMode() async throws {
        try await Self.withConfigFile(#"{"mode": "production"}"#) { path in
            let error = await #expect(throws: ConfigurationError.self) {
                try await EffectiveSettings.load(
                    arguments: ["--config-file", path, "--metrics-token", String(repeating: "m", count: 40)],
                    environment: [:])
            }
            #expect(error?.variable == "CONCIERGE_METRICS_TOKEN")
            #expect(error?.description.contains("CONCIERGE_METRICS_TOKEN_FILE") == true)
        }
    }

    @available(macOS 15, *)
    @Test func aBadValueInTheFileNamesTheVariableAndTheFile() async throws {
        try await Self.withConfigFile(#"{"port": "eighty"}"#) { path in
            let settings = try await EffectiveSettings.load(arguments: [], environment: ["CONCIERGE_CONFIG_FILE": path])
            let error = #expect(throws: ConfigurationError.self) { try settings.configuration() }
            #expect(error?.variable == "CONCIERGE_PORT")
            #expect(error?.description.contains("'eighty' is not a whole number") == true)
            #expect(error?.description.contains(path) == true)
            #expect(error?.description.contains("\n") == false)
        }
        try await Self.withConfigFile(#"{"port": {"nested": true}}"#) { path in
            let error = await #expect(throws: ConfigurationError.self) {
                try await EffectiveSettings.load(arguments: ["--config-file", path], environment: [:])
            }
            #expect(error?.variable == "CONCIERGE_PORT")
            #expect(error?.description.contains(path) == true)
        }
    }

    @available(macOS 15, *)
    @Test(arguments: [#"{"port": 80"#, "[1, 2]", "port = 80"])
    func aMalformedFileIsRefusedInOneLine(json: String) async throws {
        try await Self.withConfigFile(json) { path in
            let error = await #expect(throws: ConfigurationError.self) {
                try await EffectiveSettings.load(arguments: ["--config-file", path], environment: [:])
            }
            #expect(error?.variable == "CONCIERGE_CONFIG_FILE")
            #expect(error?.description.contains(path) == true)
            #expect(error?.description.contains("\n") == false)
        }
    }

    @available(macOS 15, *)
    @Test func aMisspeltKeyInTheFileIsRefused() async throws {
        try await Self.withConfigFile(#"{"prot": 9000}"#) { path in
            let error = await #expect(throws: ConfigurationError.self) {
                try await EffectiveSettings.load(arguments: ["--config-file", path], environment: [:])
            }
            #expect(error?.description.contains("\"prot\"") == true)
        }
    }

    @available(macOS 15, *)
    @Test(arguments: [
        (["--prot", "9000"], "--prot"), (["9000"], "9000"), (["--port"], "--port"),
        (["--port", "1", "--port=2"], "--port"),
    ])
    func aFlagThatIsNoSettingOrLacksItsValueIsRefused(arguments: [String], named: String) async {
        let error = await #expect(throws: ConfigurationError.self) {
            try await EffectiveSettings.load(arguments: arguments, environment: [:])
        }
        #expect(error?.variable == named)
    }

    @available(macOS 15, *)
    @Test func thePrintedSettingsShowNoSecret() async throws {
        let token = "known-metrics-token-0123456789abcdefghij"
        let secretFile = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        try Data("known-server-secret-0123456789abcdefghij".utf8).write(to: secretFile)
        defer { try? FileManager.default.removeItem(at: secretFile) }
        try await Self.withConfigFile(#"{"adminToken": "known-admin-token-0123456789abcdefghijk"}"#) { path in
            let settings = try await EffectiveSettings.load(
                arguments: ["--metrics-token", token, "--port", "9001"],
                environment: [
                    "CONCIERGE_CONFIG_FILE": path, "CONCIERGE_SECRET_FILE": secretFile.path,
                    "DATABASE_URL": "postgres://app:known-db-password@db/concierge",
                ])
            let report = settings.report
            for secret in [token, "known-server-secret", "known-admin-token", "known-db-password"] {
                #expect(!report.contains(secret), "\(secret) printed")
            }
            #expect(report.contains("CONCIERGE_METRICS_TOKEN=\(EffectiveSettings.redacted)  (flag --metrics-token)"))
            #expect(report.contains("CONCIERGE_PORT=9001  (flag --port)"))
            #expect(report.contains("CONCIERGE_HOST=127.0.0.1  (default)"))
            #expect(report.split(separator: "\n").count == ConfigurationVariable.all.count)
        }
    }

    @available(macOS 15, *)
    @Test func secretsAreTheNamedOnesAndEveryTokenKeyAndSecret() {
        let secrets = Set(ConfigurationVariable.all.filter(\.isSecret).map(\.name))
        #expect(secrets.isSuperset(of: ["DATABASE_URL", "SMTP_URL", "CONCIERGE_SECRET", "STRIPE_WEBHOOK_SECRET"]))
        #expect(secrets.isSuperset(of: ["MOLLIE_API_KEY", "TWILIO_AUTH_TOKEN", "CONCIERGE_ADMIN_TOKEN"]))
        #expect(!secrets.contains("CONCIERGE_PORT"))
    }
}
