/// Writes two-tone PNG images (1-bit grayscale, colour type 0) without zlib: the image data is
/// a zlib stream of stored deflate blocks with its Adler-32, each chunk with its CRC-32
/// (RFC 2083, RFC 1950, RFC 1951). Stored blocks do not compress, but at one bit a pixel a
/// ticket's QR code stays a few tens of kilobytes.
enum PNGWriter {
    /// `dark` row by row, `width × height` pixels, true for black.
    static func bilevel(width: Int, height: Int, dark: [Bool]) -> [UInt8] {
        precondition(width > 0 && height > 0 && dark.count == width * height)
        let rowBytes = (width + 7) / 8
        var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        for y in 0..<height {
            let start = y * (rowBytes + 1)  // raw[start] is the row's filter type: 0, None
            for x in 0..<width where !dark[y * width + x] {
                raw[start + 1 + x / 8] |= UInt8(0x80 >> (x % 8))  // 1 is white
            }
        }
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [1, 0, 0, 0, 0]  // bit depth 1, grayscale, deflate, adaptive filtering, no interlace
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", header)
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.appendBigEndian(UInt32(data.count))
        let typed = Array(type.utf8) + data
        result += typed
        result.appendBigEndian(crc32(typed))
        return result
    }

    /// A zlib stream (deflate, 32 KiB window, no dictionary) of stored blocks of at most 65,535 bytes.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var result: [UInt8] = [0x78, 0x01]  // CMF, FLG: (0x7801 % 31 == 0)
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let final = offset + length == data.count
            result.append(final ? 1 : 0)  // BFINAL, BTYPE 00 (stored)
            result += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            result += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        result.appendBigEndian(adler32(data))
        return result
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

extension [UInt8] {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF),
        ])
    }
}
