/// Text made safe to put into HTML, SVG or XML, inside an element or an attribute value quoted
/// with `"` or `'`: the one escaping every page and drawn picture uses, so a room type or section
/// named `S" onload="…` stays text (security review 2026-11-27, finding 9).
public enum MarkupEscaping {
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
