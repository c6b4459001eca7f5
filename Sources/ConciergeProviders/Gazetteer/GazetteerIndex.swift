/// A word index over every name of every place: the distinct folded words in byte order, each
/// with the (place, name) pairs it occurs in. Prefix search is a binary search for the range of
/// words that start with the query word.
struct GazetteerIndex: Sendable {
    struct Posting: Sendable {
        let place: Int32
        /// 0 is the place's own name; 1… its alternate names in order.
        let name: UInt16
    }

    /// Distinct folded words, sorted bytewise.
    private(set) var words: [[UInt8]] = []
    /// postings[i] belong to words[i].
    private(set) var postings: [[Posting]] = []
    /// The folded words of every name: nameWords[place][name].
    private(set) var nameWords: [[[[UInt8]]]] = []

    init(places: [GazetteerPlace]) {
        var byWord: [[UInt8]: [Posting]] = [:]
        nameWords.reserveCapacity(places.count)
        for (placeIndex, place) in places.enumerated() {
            var folded: [[[UInt8]]] = []
            for (nameIndex, name) in ([place.name] + place.alternateNames).enumerated() {
                let words = TextFolding.words(name)
                folded.append(words)
                for word in Set(words) {
                    byWord[word, default: []].append(Posting(place: Int32(placeIndex), name: UInt16(nameIndex)))
                }
            }
            nameWords.append(folded)
        }
        let sorted = byWord.keys.sorted { $0.lexicographicallyPrecedes($1) }
        words = sorted
        postings = sorted.map { byWord[$0] ?? [] }
    }

    /// The indices of the words that start with `prefix`.
    func wordRange(prefix: [UInt8]) -> Range<Int> {
        let lower = firstIndex { !$0.lexicographicallyPrecedes(prefix) }
        var upperBound = prefix
        // The first word past every word with this prefix: increment the last byte that can be.
        while let last = upperBound.last, last == 0xFF { upperBound.removeLast() }
        guard !upperBound.isEmpty else { return lower..<words.count }
        upperBound[upperBound.count - 1] += 1
        let upper = firstIndex { !$0.lexicographicallyPrecedes(upperBound) }
        return lower..<max(lower, upper)
    }

    /// The indices of the words that `query` matches with one typo (and not exactly).
    func typoWords(query: [UInt8]) -> [Int] {
        var result: [Int] = []
        let q = query[...]
        for (index, word) in words.enumerated() where word.count >= query.count - 1 {
            if word.starts(with: query) { continue }
            if isPrefixWithinOneEdit(q, of: word[...]) { result.append(index) }
        }
        return result
    }

    private func firstIndex(where predicate: ([UInt8]) -> Bool) -> Int {
        var low = 0
        var high = words.count
        while low < high {
            let mid = (low + high) / 2
            if predicate(words[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
