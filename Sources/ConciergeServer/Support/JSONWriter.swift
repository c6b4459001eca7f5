import ConciergeCore
import NIOCore

/// Writes JSON straight into a buffer, for the few responses on the hot path. Foundation's
/// `JSONEncoder` goes through a generic tree of containers and was a sixth of the server's work
/// per pricing request. Keys are written in sorted order and numbers as `JSONEncoder` writes
/// them, so the bytes are identical to `Wire.encoder`'s (a test holds the two together).
struct JSONWriter {
    private(set) var buffer: ByteBuffer
    private var needsComma = false

    init(capacity: Int = 512) {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
    }

    /// `{ … }`: `body` writes the members, in sorted key order.
    mutating func object(_ body: (inout JSONWriter) -> Void) {
        buffer.writeInteger(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        buffer.writeInteger(UInt8(ascii: "}"))
        needsComma = true
    }

    /// `[ … ]` of `elements`, each written by `body`.
    mutating func array<Element>(_ elements: [Element], _ body: (inout JSONWriter, Element) -> Void) {
        buffer.writeInteger(UInt8(ascii: "["))
        needsComma = false
        for element in elements {
            separate()
            body(&self, element)
            needsComma = true
        }
        buffer.writeInteger(UInt8(ascii: "]"))
        needsComma = true
    }

    mutating func key(_ name: String) {
        separate()
        string(name)
        buffer.writeInteger(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ value: String) {
        buffer.writeInteger(UInt8(ascii: "\""))
        // Most strings need no escaping: copy them whole.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            buffer.writeString(value)
            buffer.writeInteger(UInt8(ascii: "\""))
            needsComma = true
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): buffer.writeStaticString("\\\"")
            case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
            case 0x0A: buffer.writeStaticString("\\n")
            case 0x0D: buffer.writeStaticString("\\r")
            case 0x09: buffer.writeStaticString("\\t")
            case 0x08: buffer.writeStaticString("\\b")
            case 0x0C: buffer.writeStaticString("\\f")
            case ..<0x20:
                buffer.writeString("\\u00" + [byte].lowercaseHex)
            default: buffer.writeInteger(byte)
            }
        }
        buffer.writeInteger(UInt8(ascii: "\""))
        needsComma = true
    }

    mutating func number(_ value: Int) {
        buffer.writeString(String(value))
        needsComma = true
    }

    /// Finite doubles as `JSONEncoder` writes them: the shortest form that reads back the same,
    /// without a trailing `.0` for whole numbers.
    mutating func number(_ value: Double) {
        if value == value.rounded(), abs(value) < 1e15 {
            buffer.writeString(String(Int64(value)))
        } else {
            buffer.writeString(value.description)
        }
        needsComma = true
    }

    mutating func null() {
        buffer.writeStaticString("null")
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        buffer.writeStaticString(value ? "true" : "false")
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { buffer.writeInteger(UInt8(ascii: ",")) }
    }
}
