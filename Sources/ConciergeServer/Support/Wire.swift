import Foundation

/// How responses are encoded: slashes unescaped (URLs stay readable) and keys in a stable order.
enum Wire {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()
}
