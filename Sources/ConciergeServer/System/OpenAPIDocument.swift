import Foundation
import NIOCore

/// The OpenAPI description served at `/openapi.yaml`: the platform's document
/// (`Resources/openapi.yaml`) with every vertical's fragment merged in.
public enum OpenAPIDocument {
    public static func text() throws -> String {
        try text(fragments: VerticalModules.all.map(\.openAPIFragment))
    }

    static func text(fragments: [String]) throws -> String {
        try fragments.reduce(try resource("openapi")) { document, name in
            OpenAPIFragmentMerger.merge(try resource(name), into: document)
        }
    }

    static func load() throws -> ByteBuffer {
        ByteBuffer(string: try text())
    }

    private static func resource(_ name: String) throws -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: "yaml") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}

/// Merges a vertical's fragment — top-level `paths` and `components` only, in the document's
/// two-space block style — into the document: its paths after the document's paths, each
/// component section's entries after the document's entries of the same section.
enum OpenAPIFragmentMerger {
    static func merge(_ fragment: String, into document: String) -> String {
        let fragmentSections = sections(of: fragment.split(separator: "\n", omittingEmptySubsequences: false))
        var lines = document.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for section in fragmentSections where section.key == "paths" {
            insert(section.body, intoTopLevel: "paths", lines: &lines)
        }
        for section in fragmentSections where section.key == "components" {
            for component in subsections(of: section.body) {
                insert(component.body, intoComponent: component.key, lines: &lines)
            }
        }
        return lines.joined(separator: "\n")
    }

    private struct Section {
        let key: String
        var body: [String]
    }

    /// Top-level keys (no indentation) and the indented lines under each; comments dropped.
    private static func sections(of lines: [Substring]) -> [Section] {
        var result: [Section] = []
        for line in lines where !line.hasPrefix("#") {
            if let first = line.first, first != " ", line.hasSuffix(":") {
                result.append(Section(key: String(line.dropLast()), body: []))
            } else if !line.isEmpty, !result.isEmpty {
                result[result.count - 1].body.append(String(line))
            }
        }
        return result
    }

    /// Two-space keys under `components` (`schemas`, `responses`) and their lines.
    private static func subsections(of body: [String]) -> [Section] {
        var result: [Section] = []
        for line in body {
            if line.hasPrefix("  "), !line.hasPrefix("   "), line.hasSuffix(":") {
                result.append(Section(key: String(line.dropFirst(2).dropLast()), body: []))
            } else if !result.isEmpty {
                result[result.count - 1].body.append(line)
            }
        }
        return result
    }

    private static func insert(_ body: [String], intoTopLevel key: String, lines: inout [String]) {
        guard let start = lines.firstIndex(of: "\(key):") else {
            lines += ["\(key):"] + body
            return
        }
        var end = start + 1
        while end < lines.count, lines[end].isEmpty || lines[end].hasPrefix(" ") { end += 1 }
        while end > start + 1, lines[end - 1].isEmpty { end -= 1 }
        lines.insert(contentsOf: body, at: end)
    }

    private static func insert(_ body: [String], intoComponent key: String, lines: inout [String]) {
        guard let components = lines.firstIndex(of: "components:") else {
            lines += ["components:", "  \(key):"] + body
            return
        }
        var sectionEnd = components + 1
        while sectionEnd < lines.count, lines[sectionEnd].isEmpty || lines[sectionEnd].hasPrefix(" ") {
            sectionEnd += 1
        }
        guard let start = lines[components..<sectionEnd].firstIndex(of: "  \(key):") else {
            lines.insert(contentsOf: ["  \(key):"] + body, at: sectionEnd)
            return
        }
        var end = start + 1
        while end < sectionEnd, lines[end].isEmpty || lines[end].hasPrefix("   ") { end += 1 }
        while end > start + 1, lines[end - 1].isEmpty { end -= 1 }
        lines.insert(contentsOf: body, at: end)
    }
}
