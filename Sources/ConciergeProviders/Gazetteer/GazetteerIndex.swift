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
    /// For prefixes that many names share ("a", "air", "airport"), the postings with the best
    /// static score only; see `heavyPrefixLimit`.
    private var heavyPrefixes: [[UInt8]: [Posting]] = [:]
    /// Word indices by their first and by their second byte, to narrow the typo scan.
    private var byFirstByte: [[Int32]] = Array(repeating: [], count: 256)
    private var bySecondByte: [[Int32]] = Array(repeating: [], count: 256)

    /// A prefix matching more postings than this keeps only this many, the best by static score
    /// (importance and kind). A one-letter input then ranks among the 400 most important
    /// matches, not among all 15,000 — which keeps every query under 2 ms.
    static let heavyPrefixLimit = 400
    static let heavyPrefixMaxLength = 10

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
        for (index, word) in sorted.enumerated() {
            byFirstByte[Int(word[0])].append(Int32(index))
            if word.count > 1 { bySecondByte[Int(word[1])].append(Int32(index)) }
        }
        heavyPrefixes = Self.heavyPrefixPostings(words: words, postings: postings, places: places)
    }

    /// Walks the sorted words once per prefix length; words sharing a prefix are contiguous.
    private static func heavyPrefixPostings(words: [[UInt8]], postings: [[Posting]], places: [GazetteerPlace])
        -> [[UInt8]: [Posting]]
    {
        // Scored once per place and name kind, not inside the sort's comparisons.
        let ownNameScore = places.map { GazetteerSearch.staticScore($0, alternate: false) }
        let alternateScore = places.map { GazetteerSearch.staticScore($0, alternate: true) }
        func staticScore(_ posting: Posting) -> Double {
            posting.name == 0 ? ownNameScore[Int(posting.place)] : alternateScore[Int(posting.place)]
        }
        var result: [[UInt8]: [Posting]] = [:]
        for length in 1...heavyPrefixMaxLength {
            var start = 0
            while start < words.count {
                guard words[start].count >= length else {
                    start += 1
                    continue
                }
                let prefix = words[start][0..<length]
                var end = start
                var total = 0
                while end < words.count, words[end].count >= length, words[end][0..<length] == prefix {
                    total += postings[end].count
                    end += 1
                }
                if total > heavyPrefixLimit {
                    let all = postings[start..<end].joined()
                    result[Array(prefix)] = Array(
                        all.sorted { staticScore($0) > staticScore($1) }.prefix(heavyPrefixLimit))
                }
                start = max(end, start + 1)
            }
        }
        return result
    }

    /// The best postings for `prefix` when it is shared by very many names; nil otherwise.
    func heavyPostings(prefix: [UInt8]) -> [Posting]? {
        heavyPrefixes[prefix]
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
    ///
    /// With one edit, either the first letters agree (the edit is later) or the edit is at the
    /// start, and then the word's first or second letter is the query's first or second. So only
    /// words whose first or second byte is `query[0]` or `query[1]` need the full check.
    func typoWords(query: [UInt8]) -> [Int] {
        guard query.count >= 2 else { return [] }
        let q = query[...]
        var seen = Set<Int32>()
        var result: [Int] = []
        for bucket in [
            byFirstByte[Int(query[0])], byFirstByte[Int(query[1])], bySecondByte[Int(query[0])],
            bySecondByte[Int(query[1])],
        ] {
            for index in bucket {
                let word = words[Int(index)]
                guard word.count >= query.count - 1, !word.starts(with: query), seen.insert(index).inserted,
                    isPrefixWithinOneEdit(q, of: word[...])
                else { continue }
                result.append(Int(index))
            }
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
