import Foundation

/// Where random bytes come from. Domain code never draws them itself: references, codes, tokens
/// and ids come from an injected source, so a test can name the reference it expects.
public protocol RandomSource: Sendable {
    func bytes(_ count: Int) -> [UInt8]
}

/// The operating system's CSPRNG (`SystemRandomNumberGenerator`), eight bytes per draw.
public struct SystemRandomSource: RandomSource {
    public init() {}

    public func bytes(_ count: Int) -> [UInt8] { Randomness.bytes(count) }
}

/// A repeatable stream for tests: the same seed gives the same references, codes and tokens.
/// Never used outside tests: its output is predictable by design.
public final class SeededRandomSource: RandomSource, @unchecked Sendable {
    private let lock = NSLock()
    private var state: UInt64

    public init(seed: UInt64 = 42) { self.state = seed }

    public func bytes(_ count: Int) -> [UInt8] {
        lock.withLock {
            var out: [UInt8] = []
            out.reserveCapacity(count + 7)
            while out.count < count {
                // SplitMix64: tiny, and every seed gives a well-spread stream.
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                withUnsafeBytes(of: z ^ (z >> 31)) { out.append(contentsOf: $0) }
            }
            return Array(out.prefix(count))
        }
    }
}

extension RandomSource {
    /// `count` decimal digits, each uniform (bytes of 250 and above are redrawn: no modulo bias).
    public func digits(_ count: Int) -> String {
        var result = ""
        result.reserveCapacity(count)
        while result.count < count {
            for byte in bytes(count - result.count) where byte < 250 {
                result.append(Character(Unicode.Scalar(UInt8(ascii: "0") + byte % 10)))
            }
        }
        return result
    }

    /// A URL-safe token carrying `byteCount` random bytes.
    public func token(byteCount: Int = 32) -> String {
        Data(bytes(byteCount)).base64URLEncodedString()
    }

    /// A random identifier for rows (128 bits), e.g. `bkg_3f…`.
    public func identifier(prefix: String) -> String {
        prefix + "_" + bytes(16).lowercaseHex
    }
}
