import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// A request the HTTP parser refuses — most often an address with raw UTF-8 (`?q=zürich` sent
/// unencoded) — never reaches the router: Hummingbird answers it with an empty 400 and closes.
/// This channel answers it instead with the JSON error body of the vertical whose path it
/// names, saying what to send, then closes as before.
struct MalformedRequestAnsweringChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let base: HTTP1Channel
    let renderers: ErrorRenderers

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let renderers = self.renderers
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let recorder = RequestLineRecorder()
            // Before the decoder, to see the raw request line; after it, to see its errors.
            try channel.pipeline.syncOperations.addHandler(recorder, position: .first)
            let decoder = try channel.pipeline.syncOperations.handler(
                type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(
                MalformedRequestAnswerer(recorder: recorder, renderers: renderers), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 whose unparseable requests get the vertical's JSON error body.
    static func http1AnsweringMalformedRequests(configuration: HTTP1Channel.Configuration, renderers: ErrorRenderers)
        -> HTTPServerBuilder
    {
        .init { responder in
            MalformedRequestAnsweringChannel(
                base: HTTP1Channel(responder: responder, configuration: configuration), renderers: renderers)
        }
    }
}

/// Keeps the last buffer received — a reference, not a copy: this runs on every read of every
/// connection — to find the path of a request the parser refused.
final class RequestLineRecorder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private var last: ByteBuffer?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        last = unwrapInboundIn(data)
        context.fireChannelRead(data)
    }

    /// The path of the last request line received (`/events/api/shows`), or nil.
    var lastPath: String? {
        guard let last else { return nil }
        let text = String(decoding: last.readableBytesView.prefix(4096), as: UTF8.self)
        for line in text.split(whereSeparator: \.isNewline).reversed() {
            let parts = line.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].allSatisfy({ $0.isUppercase }), parts[1].hasPrefix("/") else { continue }
            return String(parts[1].prefix { $0 != "?" && $0 != "#" })
        }
        return nil
    }
}

/// Answers a parser error with a JSON 400 in the envelope of the path's vertical and closes.
final class MalformedRequestAnswerer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let recorder: RequestLineRecorder
    private let renderers: ErrorRenderers
    private var answered = false

    init(recorder: RequestLineRecorder, renderers: ErrorRenderers) {
        self.recorder = recorder
        self.renderers = renderers
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        guard !answered else { return }
        answered = true
        let path = recorder.lastPath ?? "/"
        let message =
            switch parserError {
            case .invalidURL, .invalidPath, .invalidQueryString, .invalidFragment:
                "The address has characters that must be percent-encoded as UTF-8: send ?q=z%C3%BCrich for ?q=zürich."
            default: "The request is not valid HTTP/1.1."
            }
        let description = ErrorDescription(status: .badRequest, code: "invalid_request", message: message)
        let body = (try? renderers.renderer(for: path).body(for: description)) ?? Data()
        let head = HTTPResponseHead(
            version: .http1_1, status: .badRequest,
            headers: [
                "Content-Type": "application/json; charset=utf-8", "Content-Length": String(body.count),
                "Connection": "close",
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
