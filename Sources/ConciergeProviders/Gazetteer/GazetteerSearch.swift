import ConciergeCore
import Foundation

/// One autocomplete query over the gazetteer: find every place one of whose names matches all
/// query words (each a prefix of some word of that name, one typo allowed for words of five or
/// more characters), then rank.
///
/// Ranking is a sum; the weights are tuned so that, for example, "zurich" puts the city first
/// and its airport second, and "ZRH" puts the airport first:
/// - importance: log10 of the population (cities) or of the served city plus bonuses (airports);
/// - kind: airports +1.5, stations +1 (a chauffeur's usual pickups);
/// - match: the whole name typed +6, the name's first word started +3, an alternate name
///   instead of the place's own −0.75, each typo −2.5 (−4 when it is in the first letter), an airport's exact IATA code +7;
/// - proximity, when the caller's position is known: −2.5 × log10(1 + km / 20), so a nearby
///   town beats a far airport whose code happens to be its name ("Wil" near St. Gallen).
struct GazetteerSearch {
    static let maxWords = 6
    static let maxWordLength = 40

    let gazetteer: Gazetteer
    let tokens: [[UInt8]]
    let near: Coordinate?

    init(gazetteer: Gazetteer, input: String, near: Coordinate?) {
        self.gazetteer = gazetteer
        self.tokens = TextFolding.words(String(input.prefix(200))).prefix(Self.maxWords).map {
            Array($0.prefix(Self.maxWordLength))
        }
        self.near = near
    }

    /// The indices of the best places, best first.
    func run(limit: Int) -> [Int] {
        let index = gazetteer.index
        // Candidates come from the most selective word ("zur" in "airport zur"); a word shared by
        // thousands of names is only used when every word is like that.
        func postingCount(_ token: [UInt8]) -> Int {
            if index.heavyPostings(prefix: token) != nil { return Int.max - token.count }
            return index.wordRange(prefix: token).reduce(0) { $0 + index.postings[$1].count }
        }
        // Counted once per word, not once per comparison: this is the hot path of every keystroke.
        let counts = tokens.map(postingCount)
        guard let anchor = counts.indices.min(by: { counts[$0] < counts[$1] }) else { return [] }
        var best: [Int32: Double] = [:]

        func consider(_ postings: [GazetteerIndex.Posting], typo: Bool) {
            for posting in postings {
                guard let score = score(posting: posting, anchor: anchor, anchorTypo: typo) else { continue }
                if score > best[posting.place] ?? -.infinity { best[posting.place] = score }
            }
        }
        if let heavy = index.heavyPostings(prefix: tokens[anchor]) {
            consider(heavy, typo: false)
        } else {
            for wordIndex in index.wordRange(prefix: tokens[anchor]) {
                consider(index.postings[wordIndex], typo: false)
            }
        }
        if tokens[anchor].count >= 5 {
            for wordIndex in index.typoWords(query: tokens[anchor]) { consider(index.postings[wordIndex], typo: true) }
        }
        return best.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(limit).map { Int($0.key) }
    }

    /// The part of the score that does not depend on the query.
    static func staticScore(_ place: GazetteerPlace, alternate: Bool) -> Double {
        var score = place.importance
        switch place.kind {
        case .airport: score += 1.5
        case .station: score += 1
        default: break
        }
        return alternate ? score - 0.75 : score
    }

    private func score(posting: GazetteerIndex.Posting, anchor: Int, anchorTypo: Bool) -> Double? {
        let place = gazetteer.places[Int(posting.place)]
        let words = gazetteer.index.nameWords[Int(posting.place)][Int(posting.name)]
        var typos = anchorTypo ? 1 : 0
        for (position, token) in tokens.enumerated() where position != anchor {
            if words.contains(where: { $0.starts(with: token) }) { continue }
            guard token.count >= 5, words.contains(where: { isPrefixWithinOneEdit(token[...], of: $0[...]) }) else {
                return nil
            }
            typos += 1
        }
        // A typo in the first letter is rarer than one inside the word.
        let firstLetterTypo = typos > 0 && !tokens.contains { token in words.contains { $0.first == token.first } }

        var score = Self.staticScore(place, alternate: posting.name != 0)
        let iataMatch = tokens.count == 1 && place.iataCode.map { Array($0.lowercased().utf8) == tokens[0] } == true
        if iataMatch {
            score += 7
        } else if typos == 0, words == tokens {
            score += 8
        } else if let first = words.first, let firstToken = tokens.first,
            first.starts(with: firstToken)
                || (firstToken.count >= 5 && isPrefixWithinOneEdit(firstToken[...], of: first[...]))
        {
            score += 3
        }
        score -= 2.5 * Double(typos) + (firstLetterTypo ? 1.5 : 0)
        if let near {
            score -= 2.5 * log10(1 + place.coordinate.distanceKilometers(to: near) / 20)
        }
        return score
    }
}
