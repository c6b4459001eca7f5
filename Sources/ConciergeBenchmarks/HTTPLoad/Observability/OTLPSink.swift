import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A stand-in OpenTelemetry collector on a loopback port: accepts every OTLP/HTTP export with an
/// empty success answer (an empty protobuf message is a valid `Export…ServiceResponse`) and counts
/// what arrived, so the overhead benchmark measures a server that really exports its spans.
final class OTLPSink: Sendable {
    struct Received: Sendable {
        var exports = 0
        var bytes = 0
    }

    let port: Int
    private let channel: any Channel
    private let received: NIOLockedValueBox<Received>

    private init(channel: any Channel, received: NIOLockedValueBox<Received>) {
        self.channel = channel
        self.received = received
        self.port = channel.localAddress?.port ?? 0
    }

    static func start() async throws -> OTLPSink {
        let received = NIOLockedValueBox(Received())
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(ExportHandler(received: received))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return OTLPSink(channel: channel, received: received)
    }

    var endpoint: String { "http://127.0.0.1:\(port)" }
    var totals: Received { received.withLockedValue { $0 } }

    func stop() async {
        try? await channel.close()
    }

    private final class ExportHandler: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let received: NIOLockedValueBox<Received>

        init(received: NIOLockedValueBox<Received>) {
            self.received = received
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head:
                break
            case .body(let buffer):
                received.withLockedValue { $0.bytes += buffer.readableBytes }
            case .end:
                received.withLockedValue { $0.exports += 1 }
                var headers = HTTPHeaders()
                headers.add(name: "Content-Type", value: "application/x-protobuf")
                headers.add(name: "Content-Length", value: "0")
                context.write(
                    wrapOutboundOut(.head(.init(version: .http1_1, status: .ok, headers: headers))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}
