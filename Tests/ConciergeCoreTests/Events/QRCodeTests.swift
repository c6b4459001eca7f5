import ConciergeTestSupport
import Foundation
import Testing

@testable import ConciergeCore

/// The QR encoder against an independent decoder: symbols of every error correction level,
/// from short texts to each tested version's full capacity, written as PNG and read back by
/// `zbarimg` (Debian's zbar-tools, installed by `scripts/ensure-zbar`). Without zbarimg these
/// tests fail, unless `CONCIERGE_SKIP_ZBAR=1` says to leave the decoder out.
@Suite struct QRCodeTests {
    /// Byte capacities from the standard's table (ISO/IEC 18004 Table 7), L/M/Q/H.
    static let capacities: [Int: [Int]] = [
        1: [17, 14, 11, 7], 2: [32, 26, 20, 14], 5: [106, 84, 60, 44], 7: [154, 122, 86, 64],
        9: [230, 180, 130, 98], 10: [271, 213, 151, 119], 14: [458, 362, 258, 194], 20: [858, 666, 482, 382],
        27: [1465, 1125, 805, 625], 32: [1952, 1538, 1112, 842], 40: [2953, 2331, 1663, 1273],
    ]

    @Test func capacitiesAreTheStandardsTable() {
        for (version, expected) in Self.capacities {
            let actual = QRCode.ErrorCorrection.allCases.map { QRCode.capacity(version: version, errorCorrection: $0) }
            #expect(actual == expected, "version \(version)")
        }
    }

    @Test func alignmentPatternsSitWhereTheStandardPutsThem() {
        #expect(QRCodeTables.alignmentPositions(version: 1) == [])
        #expect(QRCodeTables.alignmentPositions(version: 2) == [6, 18])
        #expect(QRCodeTables.alignmentPositions(version: 7) == [6, 22, 38])
        #expect(QRCodeTables.alignmentPositions(version: 32) == [6, 34, 60, 86, 112, 138])
        #expect(QRCodeTables.alignmentPositions(version: 40) == [6, 30, 58, 86, 114, 142, 170])
    }

    @Test func checksumsMatchKnownValues() {
        #expect(PNGWriter.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(PNGWriter.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(PNGWriter.crc32(Array("IEND".utf8)) == 0xAE42_6082)
    }

    /// The generator polynomial of degree 7 from the standard's Annex A (exponents of α).
    @Test func reedSolomonGeneratorOfDegreeSeven() {
        var log = [Int](repeating: 0, count: 256)
        var value: UInt8 = 1
        for exponent in 0..<255 {
            log[Int(value)] = exponent
            value = ReedSolomon.multiply(value, 2)
        }
        #expect(ReedSolomon.divisor(degree: 7).map { log[Int($0)] } == [87, 229, 146, 149, 238, 102, 21])
    }

    @Test func tooLongIsAnError() {
        #expect(throws: QRCode.TooLong.self) {
            try QRCode(bytes: Array(repeating: 65, count: 2954), errorCorrection: .low)
        }
    }

    @Test func aTicketPayloadFitsEveryLevel() throws {
        let payload = "CEVS1.ord_01HZX3K9Q2W8E7R6T5Y4U3I2O1.shw_demo_1.stalls-A10." + String(repeating: "x", count: 86)
        for level in QRCode.ErrorCorrection.allCases {
            let code = try QRCode(text: payload, errorCorrection: level)
            #expect(code.version <= 12)
            try Self.expectDecodes(code, payload)
        }
    }

    /// Every level, short texts and each tested version filled to the last byte.
    @Test(arguments: QRCode.ErrorCorrection.allCases)
    func decodesAtEveryLevelAndSize(level: QRCode.ErrorCorrection) throws {
        var random = SplitMix(seed: 0x5EED + UInt64(level.rawValue.unicodeScalars.first!.value))
        var payloads = ["A", "Concierge", "https://concierge.example/events/tickets/ord_123"]
        for version in Self.capacities.keys.sorted() {
            let index = QRCode.ErrorCorrection.allCases.firstIndex(of: level)!
            let capacity = Self.capacities[version]![index]
            payloads.append(random.text(count: capacity))
            if version > 1 { payloads.append(random.text(count: Self.capacities[version - 1]?[index] ?? capacity - 1)) }
        }
        for payload in payloads {
            let code = try QRCode(text: payload, errorCorrection: level)
            if let version = Self.capacities.first(where: {
                $0.value[QRCode.ErrorCorrection.allCases.firstIndex(of: level)!] == payload.utf8.count
            })?.key {
                #expect(code.version == version, "\(payload.utf8.count) bytes at \(level)")
            }
            try Self.expectDecodes(code, payload)
        }
    }

    /// Every version from 1 to 40 once (at a level that varies), so every alignment layout and
    /// version block is read back.
    @Test func decodesEveryVersion() throws {
        var random = SplitMix(seed: 40)
        for version in 1...40 {
            let level = QRCode.ErrorCorrection.allCases[version % 4]
            let capacity = QRCode.capacity(version: version, errorCorrection: level)
            let payload = random.text(count: capacity)
            let code = try QRCode(text: payload, errorCorrection: level)
            #expect(code.version == version)
            try Self.expectDecodes(code, payload)  // version 40 at 4 px: an image of two stored blocks
        }
    }

    /// Each of the eight mask patterns, forced, still reads back.
    @Test func decodesWithEveryMask() throws {
        for mask in 0..<8 {
            let payload = "mask \(mask): Stalls row A seat \(mask + 1)"
            let code = try QRCode(bytes: Array(payload.utf8), errorCorrection: .quartile, minimumVersion: 3, mask: mask)
            #expect(code.mask == mask)
            try Self.expectDecodes(code, payload)
        }
    }

    @Test func decodesUTF8() throws {
        let payload = "Zürich, Opernhaus — Parkett Reihe 3 Platz 12 🎭"
        try Self.expectDecodes(try QRCode(text: payload, errorCorrection: .high), payload)
    }

    /// The SVG draws the same modules as the PNG: one unit square per dark module, offset by the
    /// quiet zone.
    @Test func svgDrawsTheDarkModules() throws {
        let code = try QRCode(text: "svg", errorCorrection: .low)
        let svg = code.svg(title: "Ticket <A1>")
        #expect(svg.contains("viewBox=\"0 0 29 29\""))
        #expect(svg.contains("<title>Ticket &lt;A1&gt;</title>"))
        let squares = svg.components(separatedBy: "h1v1h-1z").count - 1
        var dark = 0
        for y in 0..<code.size { for x in 0..<code.size where code[x, y] { dark += 1 } }
        #expect(squares == dark)
        #expect(svg.contains("M4,4h1v1h-1z"))  // the top left finder's corner
    }

    // MARK: zbarimg

    static func expectDecodes(
        _ code: QRCode, _ payload: String, moduleSize: Int = 4, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        guard let zbarimg = try Self.zbarimg() else { return }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(code.png(moduleSize: moduleSize)).write(to: file)
        let run = try ChildProcess.run(zbarimg.path, ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", file.path])
        var decoded = run.output
        if decoded.hasSuffix("\n") { decoded.removeLast() }
        #expect(
            run.exitStatus == 0 && decoded == payload,
            "version \(code.version) \(code.errorCorrection) mask \(code.mask), \(payload.utf8.count) bytes: zbarimg exit \(run.exitStatus), read \(decoded.prefix(80).debugDescription)",
            sourceLocation: sourceLocation)
    }

    /// zbarimg's path; nil only when `CONCIERGE_SKIP_ZBAR=1`, an error with the install hint otherwise.
    static func zbarimg() throws -> URL? {
        let environment = ProcessInfo.processInfo.environment
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") + ["/usr/bin", "/usr/local/bin"]
        for folder in folders {
            let path = "\(folder)/zbarimg"
            if FileManager.default.isExecutableFile(atPath: path) { return URL(fileURLWithPath: path) }
        }
        if environment["CONCIERGE_SKIP_ZBAR"] == "1" { return nil }
        throw ZbarMissing()
    }

    struct ZbarMissing: Error, CustomStringConvertible {
        var description: String {
            "zbarimg (the independent QR decoder these tests check the encoder with) is missing: run ./scripts/ensure-zbar or apt-get install zbar-tools, or set CONCIERGE_SKIP_ZBAR=1 to leave these checks out."
        }
    }
}

/// Printable ASCII from a fixed seed, so a failure is the same on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func text(count: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;= ")
        return String((0..<count).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
    }
}
