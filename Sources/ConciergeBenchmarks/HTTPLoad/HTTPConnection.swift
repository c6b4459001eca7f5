import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A request as the load generator sends it.
struct LoadRequest: Sendable {
    var method: HTTPMethod
    var uri: String
    var headers: [(String, String)] = []
    var body: String? = nil

    static func get(_ uri: String, token: String? = nil) -> LoadRequest {
        LoadRequest(method: .GET, uri: uri, headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [])
    }

    static func postJSON(_ uri: String, _ json: String, token: String? = nil, headers: [(String, String)] = [])
        -> LoadRequest
    {
        var all = headers + [("Content-Type", "application/json")]
        if let token { all.append(("Authorization", "Bearer \(token)")) }
        return LoadRequest(method: .POST, uri: uri, headers: all, body: json)
    }
}

/// What came back: enough to check the status and read a JSON body or a redirect.
struct LoadResponse: Sendable {
    let status: Int
    let headers: HTTPHeaders
    let body: ByteBuffer

    var data: Data { Data(body.readableBytesView) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: data)
    }
}

/// One keep-alive HTTP/1.1 connection over loopback, one request at a time, as a client app's
/// connection pool uses it. Plain SwiftNIO so the generator stays cheap next to the server it
/// shares the machine with.
final class HTTPConnection {
    private let host: String
    private var inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>

    private init(
        host: String, inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator,
        outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>
    ) {
        self.host = host
        self.inbound = inbound
        self.outbound = outbound
    }

    /// Opens a connection to `host:port`, hands it to `body`, and closes it afterwards.
    static func with<Value>(
        host: String, port: Int, _ body: (HTTPConnection) async throws -> Value
    ) async throws -> Value {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            let connection = HTTPConnection(
                host: "\(host):\(port)", inbound: inbound.makeAsyncIterator(), outbound: outbound)
            return try await body(connection)
        }
    }

    func send(_ request: LoadRequest) async throws -> LoadResponse {
        var head = HTTPRequestHead(version: .http1_1, method: request.method, uri: request.uri)
        head.headers.add(name: "Host", value: host)
        for (name, value) in request.headers { head.headers.add(name: name, value: value) }
        let body = request.body.map { ByteBuffer(string: $0) }
        if let body { head.headers.add(name: "Content-Length", value: String(body.readableBytes)) }
        if let body {
            try await outbound.write(contentsOf: [.head(head), .body(.byteBuffer(body)), .end(nil)])
        } else {
            try await outbound.write(contentsOf: [.head(head), .end(nil)])
        }

        var responseHead: HTTPResponseHead?
        var responseBody = ByteBuffer()
        while let part = try await inbound.next() {
            switch part {
            case .head(let received): responseHead = received
            case .body(var chunk): responseBody.writeBuffer(&chunk)
            case .end:
                guard let responseHead else { throw LoadError("a response ended before its head") }
                return LoadResponse(
                    status: Int(responseHead.status.code), headers: responseHead.headers, body: responseBody)
            }
        }
        throw LoadError("the server closed the connection")
    }
}

/// A failed step, with what went wrong in words.
struct LoadError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
