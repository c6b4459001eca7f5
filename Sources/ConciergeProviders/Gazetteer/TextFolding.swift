import Foundation

/// Search text folded the way the index is: lower case, accents removed, anything that is not
/// a letter or digit a word break. "Zürich-Flughafen" → ["zurich", "flughafen"].
enum TextFolding {
    static func words(_ text: String) -> [[UInt8]] {
        split(fold(text))
    }

    static func fold(_ text: String) -> [UInt8] {
        // Most names are ASCII; they skip Unicode decomposition, which dominates load time.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        }
        var scalars = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCompatibilityMapping.unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark {
            scalars.append(scalar)
        }
        return Array(String(scalars).lowercased().utf8)
    }

    /// Splits on every byte that is not an ASCII letter or digit and not part of a multi-byte
    /// character (letters outside ASCII stay inside their word).
    private static func split(_ bytes: [UInt8]) -> [[UInt8]] {
        var words: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in bytes {
            let isWordByte = (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || byte >= 0x80
            if isWordByte {
                current.append(byte)
            } else if !current.isEmpty {
                words.append(current)
                current.removeAll(keepingCapacity: true)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}

/// Whether `query` is within one edit (substitution, insertion, deletion or transposition of
/// neighbours) of some prefix of `word`. Linear: one scan to the first mismatch, then the four
/// repairs are each a single comparison of the rest.
func isPrefixWithinOneEdit(_ query: ArraySlice<UInt8>, of word: ArraySlice<UInt8>) -> Bool {
    let q = query
    let w = word
    var i = 0
    let qStart = q.startIndex
    let wStart = w.startIndex
    while i < q.count, i < w.count, q[qStart + i] == w[wStart + i] { i += 1 }
    if i == q.count { return true }
    func restMatches(_ qi: Int, _ wi: Int) -> Bool {
        let remaining = q.count - qi
        guard remaining >= 0, wi + remaining <= w.count else { return false }
        var k = 0
        while k < remaining {
            if q[qStart + qi + k] != w[wStart + wi + k] { return false }
            k += 1
        }
        return true
    }
    if restMatches(i + 1, i + 1) { return true }  // substitution
    if restMatches(i + 1, i) { return true }  // the query has an extra character
    if restMatches(i, i + 1) { return true }  // the query lacks a character
    if i + 1 < q.count, i + 1 < w.count, q[qStart + i] == w[wStart + i + 1], q[qStart + i + 1] == w[wStart + i] {
        return restMatches(i + 2, i + 2)  // two neighbours swapped
    }
    return false
}
