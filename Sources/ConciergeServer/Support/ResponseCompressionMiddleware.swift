import CompressNIO
import HTTPTypes
import Hummingbird
import NIOCore

/// Compresses answers with gzip (`CompressionPolicy` says which) for clients that accept it, in
/// the platform's middleware chain, so pages, error pages, JSON and assets of every vertical
/// share one rule. Only a body of known length at least `minimumBytes` long is compressed — in
/// this server that is a body already in memory; a streamed one is left alone — and never twice
/// (an answer with a `Content-Encoding` goes out as it is). Such answers say
/// `Vary: Accept-Encoding` whether this client got them compressed or not, so a cache keeps the
/// two apart. brotli: no kept library offers it (compress-nio has gzip and deflate only).
struct ResponseCompressionMiddleware<Context: RequestContext>: RouterMiddleware {
    let settings: CompressionSettings

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        let accepted = CompressionPolicy.acceptsGzip(request.headers[.acceptEncoding])
        if response.status == .notModified {
            // The copy the client checks is the compressed one when it asks with the weak tag.
            if accepted, let etag = response.headers[.eTag],
                CompressionPolicy.ifNoneMatch(request.headers[.ifNoneMatch], listsWeak: etag)
            {
                response.headers[.eTag] = CompressionPolicy.weakened(etag)
                Self.addVary(to: &response)
            }
            return response
        }
        guard Self.mayCompress(response) else { return response }
        // Hummingbird answers HEAD with the GET handler's answer, whose body it drops after the
        // middlewares: compressed here like a GET, its Content-Length is the compressed one. A
        // HEAD answer that comes without its body has only the plain length, which cannot stay.
        let bodiless = request.method == .head && response.body.contentLength == 0
        let length = bodiless ? response.headers[.contentLength].flatMap { Int($0) } : response.body.contentLength
        guard let length, length >= settings.minimumBytes else { return response }
        Self.addVary(to: &response)
        guard accepted else { return response }
        response.headers[.contentEncoding] = "gzip"
        if let etag = response.headers[.eTag] { response.headers[.eTag] = CompressionPolicy.weakened(etag) }
        if bodiless {
            response.headers[.contentLength] = nil
            return response
        }
        var plain = try await response.body.collected()
        let gzip = CompressionAlgorithm.gzip(configuration: .init(compressionLevel: settings.level))
        response.body = ResponseBody(byteBuffer: try plain.compress(with: gzip))
        return response
    }

    /// Statuses with a body that is the whole representation, whose body is not already encoded,
    /// and which no one asked to leave untransformed.
    static func mayCompress(_ response: Response) -> Bool {
        let status = response.status.code
        guard status >= 200, status != 204, status != 206, status != 304 else { return false }
        guard response.headers[.contentEncoding] == nil, response.headers[.contentRange] == nil else { return false }
        if response.headers[values: .cacheControl].contains(where: { $0.lowercased().contains("no-transform") }) {
            return false
        }
        return CompressionPolicy.isCompressible(contentType: response.headers[.contentType])
    }

    private static func addVary(to response: inout Response) {
        let vary = response.headers[values: .vary].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard !vary.contains("accept-encoding"), !vary.contains("*") else { return }
        response.headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
    }
}

extension ResponseBody {
    /// The whole body in one buffer. Only for a body of known length (one already in memory).
    func collected() async throws -> ByteBuffer {
        let box = CollectedBody()
        try await write(BodyCollector(box: box))
        return box.buffer
    }
}

private final class CollectedBody {
    var buffer = ByteBuffer()
}

private struct BodyCollector: ResponseBodyWriter {
    let box: CollectedBody

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        box.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
