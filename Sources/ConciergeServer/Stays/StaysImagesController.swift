import ConciergeCore
import Foundation
import Hummingbird
import NIOCore

/// `GET /stays/images/{name}`: the room pictures — uploaded through the admin API, or drawn by
/// the server as SVG so the demo works offline and nothing is fetched from elsewhere. Public:
/// image loaders send no token.
struct StaysImagesController {
    let hotels: any StaysHotelSource
    let store: any StaysHotelStore

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("images/:name", use: image)
    }

    @Sendable func image(request: Request, context: AppRequestContext) async throws -> Response {
        let name = try context.parameters.require("name")
        // Uploads are PNG, JPEG or WebP; drawings are SVG, so only other names need a look.
        if HotelSettings.isImageName(name), !name.hasSuffix(".svg"), let stored = try await store.image(name: name) {
            return Response(
                status: .ok,
                headers: [
                    .contentType: stored.contentType, .cacheControl: "public, max-age=86400",
                    .init("X-Content-Type-Options")!: "nosniff",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: stored.bytes)))
        }
        guard let type = try await hotels.current().roomTypes.first(where: { $0.image == name }) else {
            throw ConciergeError(.notFound, code: "not_found", message: "There is no image '\(name.prefix(60))'.")
        }
        return Response(
            status: .ok,
            headers: [.contentType: "image/svg+xml", .cacheControl: "public, max-age=86400"],
            body: .init(byteBuffer: ByteBuffer(string: Self.svg(for: type))))
    }

    /// A bed per person the room holds, on a colour of the room type.
    static func svg(for type: HotelSettings.RoomType) -> String {
        let colours = ["#5B8DEF", "#E07A5F", "#81B29A", "#F2CC8F", "#9C89B8"]
        let colour = colours[Int(type.id) % colours.count]
        let beds = (0..<min(type.capacity, 6)).map { index in
            ##"<rect x="\##(40 + index * 90)" y="190" width="70" height="40" rx="8" fill="#FFFFFF" opacity="0.85"/>"##
        }.joined()
        let title = MarkupEscaping.escaped(type.type)
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360" role="img" aria-label="\(title) room">
            <rect width="640" height="360" fill="\(colour)"/><rect y="240" width="640" height="120" fill="#000000" opacity="0.15"/>
            \(beds)<text x="40" y="110" font-family="Helvetica, Arial, sans-serif" font-size="56" fill="#FFFFFF">\(title)</text>
            <text x="40" y="160" font-family="Helvetica, Arial, sans-serif" font-size="24" fill="#FFFFFF">Up to \(type.capacity) guests</text>
            </svg>
            """
    }
}
