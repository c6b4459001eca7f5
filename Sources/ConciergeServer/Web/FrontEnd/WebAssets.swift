import ConciergeCore
import Foundation
import Hummingbird
import NIOCore

/// The pages' stylesheets, scripts and images, read once from `Resources/Web/Assets` and served
/// at `/assets/<name>` by this server (no CDN). Names carry no version, so they may be cached
/// for an hour and are checked again after that.
struct WebAssets: Sendable {
    struct Asset: Sendable {
        let bytes: ByteBuffer
        let contentType: String
        let etag: String
    }

    private let byName: [String: Asset]

    static func load(from directory: URL) throws -> WebAssets {
        var byName: [String: Asset] = [:]
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for file in files {
            guard let type = contentType(of: file) else { continue }
            let data = try Data(contentsOf: directory.appendingPathComponent(file))
            byName[file] = Asset(
                bytes: ByteBuffer(bytes: data), contentType: type,
                etag: "\"\(ContentDigest.sha256Base64(String(decoding: data, as: UTF8.self)).prefix(16))\"")
        }
        return WebAssets(byName: byName)
    }

    func asset(named name: String) -> Asset? { byName[name] }

    private static func contentType(of file: String) -> String? {
        switch file.split(separator: ".").last {
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        default: nil
        }
    }
}

/// `GET /assets/:name`.
struct WebAssetsController {
    let assets: WebAssets

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("assets/:name", use: serve)
    }

    @Sendable func serve(request: Request, context: AppRequestContext) async throws -> Response {
        let name = try context.parameters.require("name")
        guard let asset = assets.asset(named: name) else { throw HTTPError(.notFound) }
        // Weak comparison: a client holding the gzip copy asks with its tag, `W/"…"`.
        if CompressionPolicy.ifNoneMatch(request.headers[.ifNoneMatch], matches: asset.etag) {
            return Response(status: .notModified, headers: [.eTag: asset.etag])
        }
        return Response(
            status: .ok,
            headers: [.contentType: asset.contentType, .cacheControl: "public, max-age=3600", .eTag: asset.etag],
            body: .init(byteBuffer: asset.bytes))
    }
}
