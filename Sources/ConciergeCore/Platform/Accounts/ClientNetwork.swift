import Foundation

/// The network a client address stands for, as throttles count it. An IPv4 address is one
/// client; an IPv6 host usually owns a whole /64 and can pick any address in it, so IPv6 is
/// counted by its first four groups.
public enum ClientNetwork {
    public static func key(for address: String) -> String {
        guard address.contains(":"), let groups = ipv6Groups(address) else { return address }
        return groups.prefix(4).map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }

    /// Whether `text` is an IPv4 address (dotted quad) or an IPv6 address.
    public static func isAddress(_ text: String) -> Bool {
        if text.contains(":") { return ipv6Groups(text) != nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { (1...3).contains($0.count) && UInt8($0) != nil }
    }

    /// The eight 16-bit groups of an IPv6 address (`::` expanded, an embedded IPv4 tail and a
    /// zone index allowed), or nil when it is not one.
    static func ipv6Groups(_ address: String) -> [UInt16]? {
        var text = Substring(address)
        if let zone = text.firstIndex(of: "%") { text = text[..<zone] }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func parse(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var groups: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains(".") {
                    let octets = piece.split(separator: ".").compactMap { UInt8($0) }
                    guard octets.count == 4 else { return nil }
                    groups.append(UInt16(octets[0]) << 8 | UInt16(octets[1]))
                    groups.append(UInt16(octets[2]) << 8 | UInt16(octets[3]))
                } else {
                    guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
                    groups.append(value)
                }
            }
            return groups
        }
        guard let head = parse(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 8 ? head : nil }
        guard let tail = parse(halves[1]), head.count + tail.count < 8 else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }
}
