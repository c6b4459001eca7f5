import ArgumentParser
import ConciergeServer

/// `concierge config --port 9000`: what `serve` would run with, and where each value came from.
struct Config: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the effective settings and their sources (secrets redacted), check them, and exit.")

    @OptionGroup var flags: ServerFlags

    func run() async throws {
        guard #available(macOS 15, *) else { throw ValidationError("concierge config needs macOS 15 or later") }
        let settings = try await flags.effectiveSettings()
        print(settings.report)
        // Printed first, so a malformed value is seen among the others.
        _ = try settings.configuration()
    }
}
