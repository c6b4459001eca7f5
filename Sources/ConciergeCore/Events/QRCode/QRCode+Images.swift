import Foundation

extension QRCode {
    /// The symbol as an SVG document: one path of dark squares on white, with the quiet zone of
    /// four modules the standard asks for; `title` for screen readers.
    public func svg(moduleSize: Int = 8, title: String? = nil) -> String {
        let border = 4
        let side = size + border * 2
        var path = ""
        for y in 0..<size {
            for x in 0..<size where self[x, y] { path += "M\(x + border),\(y + border)h1v1h-1z" }
        }
        let label = title.map { "<title>\(Self.escaped($0))</title>" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(side * moduleSize)" height="\(side * moduleSize)" \
            viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges" role="img">\(label)\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>

            """
    }

    /// The symbol as a black and white PNG, `moduleSize` pixels per module, with a quiet zone of
    /// four modules.
    public func png(moduleSize: Int = 8) -> [UInt8] {
        precondition(moduleSize >= 1)
        let border = 4
        let side = (size + border * 2) * moduleSize
        var dark = [Bool](repeating: false, count: side * side)
        for y in 0..<size {
            for x in 0..<size where self[x, y] {
                for py in 0..<moduleSize {
                    let row = ((y + border) * moduleSize + py) * side + (x + border) * moduleSize
                    for px in 0..<moduleSize { dark[row + px] = true }
                }
            }
        }
        return PNGWriter.bilevel(width: side, height: side, dark: dark)
    }

    private static func escaped(_ text: String) -> String { MarkupEscaping.escaped(text) }
}
