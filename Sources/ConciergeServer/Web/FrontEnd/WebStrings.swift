import Foundation

/// The pages' words per language: `Resources/Web/Strings/<language>/<group>.json`, one flat
/// object of keys per group (a vertical keeps its own file). Templates read them as
/// `{{t.<group>.<key>}}`; a key missing in German falls back to the English text, so a page
/// never shows an empty label.
struct WebStrings: Sendable {
    /// language → group → key → text
    private let texts: [WebLanguage: [String: [String: String]]]

    init(texts: [WebLanguage: [String: [String: String]]]) {
        self.texts = texts
    }

    /// Reads every group of every language from `directory` (the bundle's `Web/Strings`).
    static func load(from directory: URL) throws -> WebStrings {
        var texts: [WebLanguage: [String: [String: String]]] = [:]
        for language in WebLanguage.allCases {
            let folder = directory.appendingPathComponent(language.rawValue)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            var groups: [String: [String: String]] = [:]
            for file in files where file.hasSuffix(".json") {
                let data = try Data(contentsOf: folder.appendingPathComponent(file))
                groups[String(file.dropLast(5))] = try JSONDecoder().decode([String: String].self, from: data)
            }
            texts[language] = groups
        }
        // German falls back to English key by key.
        let english = texts[.en] ?? [:]
        for language in WebLanguage.allCases where language != .en {
            var merged = english
            for (group, keys) in texts[language] ?? [:] {
                merged[group, default: [:]].merge(keys) { _, translated in translated }
            }
            texts[language] = merged
        }
        return WebStrings(texts: texts)
    }

    /// Every group of `language`, as templates read them.
    func table(_ language: WebLanguage) -> [String: [String: String]] { texts[language] ?? [:] }

    /// One text; the key itself when it is missing (a visible, searchable gap rather than nothing).
    func text(_ group: String, _ key: String, _ language: WebLanguage) -> String {
        texts[language]?[group]?[key] ?? texts[.en]?[group]?[key] ?? "\(group).\(key)"
    }

    /// One text with each `{name}` placeholder replaced by its value.
    func text(_ group: String, _ key: String, _ language: WebLanguage, _ values: [String: String]) -> String {
        values.reduce(text(group, key, language)) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) }
    }
}
