/// A QR code symbol (ISO/IEC 18004, model 2) holding bytes in byte mode, versions 1–40, at any
/// of the four error correction levels, with the mask of the lowest penalty. Written for the
/// ticket images, since no kept library draws QR codes without a system dependency; tested
/// against an independent decoder (zbarimg).
public struct QRCode: Sendable, Equatable {
    public enum ErrorCorrection: String, Sendable, CaseIterable, Hashable {
        /// Recovers about 7 % of the codewords.
        case low = "L"
        /// About 15 %.
        case medium = "M"
        /// About 25 %.
        case quartile = "Q"
        /// About 30 %.
        case high = "H"

        /// The two bits the format information carries for the level.
        var formatBits: Int {
            switch self {
            case .low: 1
            case .medium: 0
            case .quartile: 3
            case .high: 2
            }
        }
    }

    public struct TooLong: Error, Sendable, Equatable {
        public let bytes: Int
        public let capacity: Int
    }

    public let version: Int
    public let errorCorrection: ErrorCorrection
    /// The mask pattern drawn (0–7).
    public let mask: Int
    /// Modules per side: 17 + 4 × version.
    public let size: Int
    /// Row by row, true for dark.
    let modules: [Bool]

    /// Whether the module at column `x`, row `y` is dark; outside the symbol (the quiet zone) light.
    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    /// The text's UTF-8 in the smallest version that holds it.
    public init(text: String, errorCorrection: ErrorCorrection = .medium) throws {
        try self.init(bytes: Array(text.utf8), errorCorrection: errorCorrection)
    }

    /// `bytes` in byte mode, in the smallest version from `minimumVersion` that holds them;
    /// `mask` forces a mask pattern (otherwise the one with the lowest penalty).
    public init(
        bytes: [UInt8], errorCorrection: ErrorCorrection = .medium, minimumVersion: Int = 1, mask: Int? = nil
    ) throws {
        precondition((1...40).contains(minimumVersion) && (mask.map { (0...7).contains($0) } ?? true))
        guard let version = (minimumVersion...40).first(where: { Self.fits(bytes.count, $0, errorCorrection) }) else {
            throw TooLong(bytes: bytes.count, capacity: Self.capacity(version: 40, errorCorrection: errorCorrection))
        }
        let codewords = Self.interleaved(
            Self.dataCodewords(bytes, version: version, level: errorCorrection), version: version,
            level: errorCorrection)
        var matrix = QRMatrix(version: version)
        matrix.drawFunctionPatterns()
        matrix.drawCodewords(codewords)
        let penalties = (0..<8).map { matrix.penalty(mask: $0, level: errorCorrection) }
        let chosen = mask ?? penalties.indices.min { penalties[$0] < penalties[$1] }!
        matrix.applyMask(chosen)
        matrix.drawFormatBits(level: errorCorrection, mask: chosen)
        self.version = version
        self.errorCorrection = errorCorrection
        self.mask = chosen
        self.size = matrix.size
        self.modules = matrix.modules
    }

    /// How many bytes a symbol of this version and level holds in byte mode.
    public static func capacity(version: Int, errorCorrection: ErrorCorrection) -> Int {
        let bits = QRCodeTables.dataCodewords(version: version, level: errorCorrection) * 8
        return (bits - 4 - countBits(version)) / 8
    }

    static func fits(_ count: Int, _ version: Int, _ level: ErrorCorrection) -> Bool {
        count <= capacity(version: version, errorCorrection: level)
    }

    /// The character count indicator's width in byte mode.
    static func countBits(_ version: Int) -> Int { version <= 9 ? 8 : 16 }

    /// Mode indicator, count, the bytes, the terminator and the pad codewords (§7.4).
    static func dataCodewords(_ bytes: [UInt8], version: Int, level: ErrorCorrection) -> [UInt8] {
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: countBits(version))
        for byte in bytes { bits.append(Int(byte), count: 8) }
        let capacityBits = QRCodeTables.dataCodewords(version: version, level: level) * 8
        bits.append(0, count: min(4, capacityBits - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var pad = 0xEC
        while bits.count < capacityBits {
            bits.append(pad, count: 8)
            pad ^= 0xEC ^ 0x11
        }
        return bits.bytes
    }

    /// Splits the data into the version's blocks, adds each block's error correction and
    /// interleaves them (§7.6).
    static func interleaved(_ data: [UInt8], version: Int, level: ErrorCorrection) -> [UInt8] {
        let blockCount = QRCodeTables.errorCorrectionBlocks[level]![version]
        let eccLength = QRCodeTables.eccCodewordsPerBlock[level]![version]
        let rawCodewords = QRCodeTables.rawDataModules(version: version) / 8
        let shortBlocks = blockCount - rawCodewords % blockCount
        let shortBlockLength = rawCodewords / blockCount
        let divisor = ReedSolomon.divisor(degree: eccLength)
        var blocks: [[UInt8]] = []
        var offset = 0
        for i in 0..<blockCount {
            let length = shortBlockLength - eccLength + (i < shortBlocks ? 0 : 1)
            var block = Array(data[offset..<offset + length])
            offset += length
            let ecc = ReedSolomon.remainder(block, divisor: divisor)
            if i < shortBlocks { block.append(0) }  // a placeholder, left out below
            blocks.append(block + ecc)
        }
        var result: [UInt8] = []
        result.reserveCapacity(rawCodewords)
        for i in 0..<blocks[0].count {
            for (j, block) in blocks.enumerated() where i != shortBlockLength - eccLength || j >= shortBlocks {
                result.append(block[i])
            }
        }
        return result
    }
}

/// Bits appended most significant first.
struct BitBuffer {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    mutating func append(_ value: Int, count length: Int) {
        for i in stride(from: length - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if (value >> i) & 1 == 1 { bytes[count / 8] |= UInt8(0x80 >> (count % 8)) }
            count += 1
        }
    }
}
