/// RFC 5322 section 3.6.4's `msg-id` in its strict form, `"<" dot-atom-text "@" dot-atom-text ">"`
/// (the obsolete and quoted forms are what a generator must not produce): atoms of `atext`
/// joined by single dots, none empty.
enum MessageIDGrammar {
    static func isMsgID(_ value: String) -> Bool {
        guard value.hasPrefix("<"), value.hasSuffix(">") else { return false }
        let sides = value.dropFirst().dropLast().split(separator: "@", omittingEmptySubsequences: false)
        return sides.count == 2 && sides.allSatisfy(isDotAtomText)
    }

    static func isDotAtomText(_ text: Substring) -> Bool {
        let atoms = text.split(separator: ".", omittingEmptySubsequences: false)
        return atoms.allSatisfy { atom in !atom.isEmpty && atom.unicodeScalars.allSatisfy(isAtext) }
    }

    /// `atext`: letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
    static func isAtext(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        let character = Character(scalar)
        return character.isLetter || character.isNumber || "!#$%&'*+-/=?^_`{|}~".contains(character)
    }
}
