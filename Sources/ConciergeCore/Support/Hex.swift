extension Sequence<UInt8> {
    /// Lowercase hexadecimal, two digits per byte. Written out by hand: `String(format: "%02x")`
    /// per byte went through NSString and cost a tenth of every booking request.
    public var lowercaseHex: String {
        var characters: [UInt8] = []
        characters.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            characters.append(hexDigits[Int(byte >> 4)])
            characters.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: characters, as: UTF8.self)
    }
}

private let hexDigits = Array("0123456789abcdef".utf8)
