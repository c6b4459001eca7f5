/// The four penalty rules by which the mask is chosen (ISO/IEC 18004 §7.8.3): runs of five or
/// more like modules in a row or column, 2×2 blocks of one colour, finder-like 1:1:3:1:1
/// patterns with four light modules on a side, and the imbalance of dark and light.
enum QRPenalty {
    static let run = 3
    static let block = 3
    static let finderLike = 40
    static let balance = 10

    static func score(_ matrix: QRMatrix) -> Int {
        let size = matrix.size
        var result = 0
        for line in 0..<size {
            // Rows, then columns.
            result += lineScore(size: size) { matrix[$0, line] }
            result += lineScore(size: size) { matrix[line, $0] }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let colour = matrix[x, y]
                if colour == matrix[x + 1, y], colour == matrix[x, y + 1], colour == matrix[x + 1, y + 1] {
                    result += block
                }
            }
        }
        let dark = matrix.modules.count { $0 }
        let total = size * size
        // Each 5 % away from half dark costs `balance`.
        let k = (abs(dark * 20 - total * 10) + total - 1) / total - 1
        result += k * balance
        return result
    }

    /// Rules 1 and 3 along one row or column.
    private static func lineScore(size: Int, module: (Int) -> Bool) -> Int {
        var result = 0
        var history = RunHistory(size: size)
        var colour = false
        var length = 0
        for i in 0..<size {
            if module(i) == colour {
                length += 1
                if length == 5 {
                    result += run
                } else if length > 5 {
                    result += 1
                }
            } else {
                history.add(length)
                if !colour { result += history.finderLikePatterns() * finderLike }
                colour = module(i)
                length = 1
            }
        }
        // The light border after the line ends the last run.
        if colour {
            history.add(length)
            length = 0
        }
        history.add(length + size)
        result += history.finderLikePatterns() * finderLike
        return result
    }

    /// The last seven run lengths of a line, newest first, starting on light (the quiet zone
    /// before the line counts as a light run as long as the symbol).
    struct RunHistory {
        let size: Int
        var runs = [Int](repeating: 0, count: 7)

        mutating func add(_ length: Int) {
            runs.removeLast()
            runs.insert(runs[0] == 0 ? length + size : length, at: 0)
        }

        /// Dark–light–dark×3–light–dark in 1:1:3:1:1 with four light on either side: 0, 1 or 2.
        func finderLikePatterns() -> Int {
            let n = runs[1]
            let core = n > 0 && runs[2] == n && runs[3] == n * 3 && runs[4] == n && runs[5] == n
            return (core && runs[0] >= n * 4 && runs[6] >= n ? 1 : 0)
                + (core && runs[6] >= n * 4 && runs[0] >= n ? 1 : 0)
        }
    }
}
