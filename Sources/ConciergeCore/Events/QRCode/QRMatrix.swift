/// The module grid while a symbol is drawn: function patterns, the codewords' zigzag, masks,
/// format and version information (ISO/IEC 18004 §7.7–7.9).
struct QRMatrix {
    let version: Int
    let size: Int
    /// Row by row, true for dark.
    var modules: [Bool]
    /// Modules of function patterns, which neither data nor masks touch.
    var isFunction: [Bool]

    init(version: Int) {
        self.version = version
        size = version * 4 + 17
        modules = Array(repeating: false, count: size * size)
        isFunction = Array(repeating: false, count: size * size)
    }

    subscript(x: Int, y: Int) -> Bool { modules[y * size + x] }

    mutating func setFunction(_ x: Int, _ y: Int, _ dark: Bool) {
        modules[y * size + x] = dark
        isFunction[y * size + x] = true
    }

    mutating func drawFunctionPatterns() {
        for i in 0..<size {
            setFunction(6, i, i % 2 == 0)
            setFunction(i, 6, i % 2 == 0)
        }
        drawFinder(3, 3)
        drawFinder(size - 4, 3)
        drawFinder(3, size - 4)
        let positions = QRCodeTables.alignmentPositions(version: version)
        let last = positions.count - 1
        for (i, x) in positions.enumerated() {
            for (j, y) in positions.enumerated() {
                // Not over the three finder patterns.
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                drawAlignment(x, y)
            }
        }
        // Reserve the format areas (drawn for real once the mask is chosen) and draw the version.
        drawFormatBits(level: .medium, mask: 0)
        drawVersion()
    }

    /// A finder pattern with its separator, centred on (x, y).
    private mutating func drawFinder(_ x: Int, _ y: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let distance = max(abs(dx), abs(dy))
                let xx = x + dx
                let yy = y + dy
                if xx >= 0, xx < size, yy >= 0, yy < size { setFunction(xx, yy, distance != 2 && distance != 4) }
            }
        }
    }

    private mutating func drawAlignment(_ x: Int, _ y: Int) {
        for dy in -2...2 {
            for dx in -2...2 { setFunction(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
        }
    }

    /// The 15 format bits (level and mask, BCH-protected, XOR 0x5412) in both copies, and the dark module.
    mutating func drawFormatBits(level: QRCode.ErrorCorrection, mask: Int) {
        let data = level.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        // Around the top left finder.
        for i in 0...5 { setFunction(8, i, bit(i)) }
        setFunction(8, 7, bit(6))
        setFunction(8, 8, bit(7))
        setFunction(7, 8, bit(8))
        for i in 9..<15 { setFunction(14 - i, 8, bit(i)) }
        // Split between the other two finders.
        for i in 0..<8 { setFunction(size - 1 - i, 8, bit(i)) }
        for i in 8..<15 { setFunction(8, size - 15 + i, bit(i)) }
        setFunction(8, size - 8, true)
    }

    /// The 18 version bits (Golay-protected) in both blocks, from version 7 on.
    private mutating func drawVersion() {
        guard version >= 7 else { return }
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = version << 12 | remainder
        for i in 0..<18 {
            let dark = (bits >> i) & 1 == 1
            let a = size - 11 + i % 3
            let b = i / 3
            setFunction(a, b, dark)
            setFunction(b, a, dark)
        }
    }

    /// The codewords in the two-column zigzag from the bottom right, skipping function modules;
    /// remainder bits stay light.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        var i = 0
        let total = codewords.count * 8
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }  // the vertical timing pattern's column
            let upward = (right + 1) & 2 == 0
            for vertical in 0..<size {
                let y = upward ? size - 1 - vertical : vertical
                for j in 0..<2 {
                    let x = right - j
                    guard !isFunction[y * size + x], i < total else { continue }
                    modules[y * size + x] = (codewords[i >> 3] >> (7 - (i & 7))) & 1 == 1
                    i += 1
                }
            }
            right -= 2
        }
    }

    /// XORs the data modules with mask pattern `mask`; applying it twice undoes it.
    mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] {
                let flip: Bool
                switch mask {
                case 0: flip = (x + y) % 2 == 0
                case 1: flip = y % 2 == 0
                case 2: flip = x % 3 == 0
                case 3: flip = (x + y) % 3 == 0
                case 4: flip = (x / 3 + y / 2) % 2 == 0
                case 5: flip = x * y % 2 + x * y % 3 == 0
                case 6: flip = (x * y % 2 + x * y % 3) % 2 == 0
                default: flip = ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if flip { modules[y * size + x].toggle() }
            }
        }
    }

    /// The penalty of the symbol drawn with `mask` (this copy is left as it was).
    func penalty(mask: Int, level: QRCode.ErrorCorrection) -> Int {
        var trial = self
        trial.applyMask(mask)
        trial.drawFormatBits(level: level, mask: mask)
        return QRPenalty.score(trial)
    }
}
