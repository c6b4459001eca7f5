public import ConciergeCore
public import Foundation
import Mustache

/// The notification templates shipped in `Resources/Templates` (`<message>.<part>.mustache`),
/// parsed once at start. Text parts use `{{{triple}}}` braces (nothing escaped), HTML parts
/// `{{double}}` braces (HTML-escaped).
public struct MustacheMessageTemplates: MessageTemplates {
    private let library: MustacheLibrary
    private let names: Set<String>

    /// The templates bundled with the server.
    public static func bundled() throws -> MustacheMessageTemplates {
        guard let directory = Bundle.module.url(forResource: "Templates", withExtension: nil) else {
            throw ConciergeError(
                .unavailable(retryAfterSeconds: nil), code: "templates_missing",
                message:
                    "The notification templates folder is missing from the server's resources; reinstall the server.")
        }
        return try MustacheMessageTemplates(directory: directory)
    }

    /// Every `*.mustache` file of `directory`, named by its file name without the extension.
    public init(directory: URL) throws {
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "mustache" }
        var sources: [String: String] = [:]
        for file in files {
            sources[file.deletingPathExtension().lastPathComponent] = try String(contentsOf: file, encoding: .utf8)
        }
        try self.init(sources: sources)
    }

    /// Templates from text, keyed `<message>.<part>` (tests, and verticals that embed their own).
    public init(sources: [String: String]) throws {
        var library = MustacheLibrary()
        for (name, source) in sources {
            do {
                // A file's final newline is the editor's, not the message's.
                try library.register(source.hasSuffix("\n") ? String(source.dropLast()) : source, named: name)
            } catch {
                throw ConciergeError(
                    .unavailable(retryAfterSeconds: nil), code: "template_invalid",
                    message: "The message template '\(name).mustache' does not parse: \(error).")
            }
        }
        self.library = library
        self.names = Set(sources.keys)
    }

    public func render(_ message: String, values: [String: String]) throws -> RenderedMessage {
        func part(_ name: String) -> String? {
            names.contains("\(message).\(name)") ? library.render(values, withTemplate: "\(message).\(name)") : nil
        }
        let rendered = RenderedMessage(
            subject: part("subject"), text: part("text"), html: part("html"), sms: part("sms"))
        guard rendered.subject != nil || rendered.text != nil || rendered.html != nil || rendered.sms != nil else {
            throw ConciergeError(
                .unavailable(retryAfterSeconds: nil), code: "template_missing",
                message: "There is no message template named '\(message)' in the server's resources.")
        }
        return rendered
    }
}
