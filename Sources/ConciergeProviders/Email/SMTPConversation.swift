import Foundation
import NIOCore
import NIOSSL

/// One SMTP reply: the three-digit code and the text of each line (`250-…` continuation lines
/// included, in order).
struct SMTPReply: Sendable, Equatable {
    let code: Int
    let lines: [String]

    var isPositive: Bool { (200...399).contains(code) }
    var isTransient: Bool { (400...499).contains(code) }
}

/// Why an SMTP exchange stopped; turned into a `ConciergeError` by `SMTPEmailSender` only.
enum SMTPFailure: Error, Sendable, Equatable {
    enum Stage: String, Sendable {
        case greeting, ehlo, startTLS, auth, mailFrom, rcptTo, data, message
    }

    /// The server answered `reply` where a positive answer was needed.
    case reply(SMTPReply, Stage)
    /// The server closed the connection or sent something that is not SMTP.
    case connectionClosed
    case malformedReply
    case timedOut
    /// The URL requires STARTTLS and the server did not offer it.
    case startTLSNotOffered
    /// Credentials are configured but the server offers neither AUTH PLAIN nor LOGIN.
    case authNotOffered
    /// Credentials would have gone over an unencrypted, non-loopback connection.
    case credentialsWithoutTLS
}

/// Splits the server's bytes into `SMTPReply`s (RFC 5321 section 4.2: `250-` lines continue a
/// reply, `250 ` ends it) and hands them to the conversation through an async stream. A closed
/// connection or an error finishes the stream, so a waiting conversation never hangs.
final class SMTPReplyDecoder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    /// A reply is a few hundred bytes; a server sending more without a line end is broken.
    private static let maximumPendingBytes = 64 * 1024

    private let replies: AsyncThrowingStream<SMTPReply, any Error>.Continuation
    private var pending: [UInt8] = []
    private var lines: [String] = []

    init(replies: AsyncThrowingStream<SMTPReply, any Error>.Continuation) {
        self.replies = replies
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        pending.append(contentsOf: buffer.readableBytesView)
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            var line = Array(pending[..<newline])
            pending.removeSubrange(...newline)
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            guard line.count >= 3, line[0..<3].allSatisfy({ (0x30...0x39).contains($0) }),
                line.count == 3 || line[3] == UInt8(ascii: " ") || line[3] == UInt8(ascii: "-")
            else {
                fail(context: context, SMTPFailure.malformedReply)
                return
            }
            lines.append(line.count > 4 ? String(decoding: line[4...], as: UTF8.self) : "")
            if line.count > 3 && line[3] == UInt8(ascii: "-") { continue }
            let code = Int(String(decoding: line[0..<3], as: UTF8.self)) ?? 0
            replies.yield(SMTPReply(code: code, lines: lines))
            lines = []
        }
        if pending.count > Self.maximumPendingBytes {
            fail(context: context, SMTPFailure.malformedReply)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        replies.finish(throwing: SMTPFailure.connectionClosed)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context: context, error)
    }

    private func fail(context: ChannelHandlerContext, _ error: any Error) {
        replies.finish(throwing: error)
        context.close(promise: nil)
    }
}

/// The client side of one SMTP session: writes commands and reads the matching replies.
struct SMTPConversation {
    let channel: any Channel
    var replies: AsyncThrowingStream<SMTPReply, any Error>.AsyncIterator

    /// The next reply; a finished stream means the connection is gone.
    mutating func reply() async throws -> SMTPReply {
        guard let reply = try await replies.next() else { throw SMTPFailure.connectionClosed }
        return reply
    }

    /// Sends one command line (CRLF added) and returns the reply, whatever its code.
    ///
    /// A failed write is not reported as such: it means the channel closed, and why it closed (a
    /// failed TLS handshake, the server's `421` goodbye) is what the reply stream then delivers.
    mutating func send(_ command: String) async throws -> SMTPReply {
        try? await write(command + "\r\n")
        return try await reply()
    }

    /// Sends one command and requires a reply with one of `codes`.
    @discardableResult
    mutating func expect(_ codes: Set<Int>, after command: String, stage: SMTPFailure.Stage) async throws
        -> SMTPReply
    {
        let reply = try await send(command)
        guard codes.contains(reply.code) else { throw SMTPFailure.reply(reply, stage) }
        return reply
    }

    func write(_ text: String) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(string: text)).get()
    }

    /// Puts TLS under the session (for STARTTLS, after the server's `220`). Writes made from now
    /// on wait for the handshake; a failed handshake or certificate check finishes the replies.
    func startTLS(context: NIOSSLContext, serverHostname: String?) async throws {
        let channel = self.channel
        try await channel.eventLoop.submit {
            let handler = try NIOSSLClientHandler(context: context, serverHostname: serverHostname)
            try channel.pipeline.syncOperations.addHandler(handler, position: .first)
        }.get()
    }

    /// The EHLO keywords, upper-cased (`STARTTLS`, `AUTH PLAIN LOGIN`, `8BITMIME`, …); the first
    /// line of the reply is the server's name, not a capability.
    static func capabilities(of reply: SMTPReply) -> [String] {
        reply.lines.dropFirst().map { $0.uppercased() }
    }

    /// AUTH mechanisms named in `AUTH …` (or the pre-standard `AUTH=…`) lines.
    static func authMechanisms(in capabilities: [String]) -> Set<String> {
        var mechanisms: Set<String> = []
        for line in capabilities where line.hasPrefix("AUTH ") || line.hasPrefix("AUTH=") {
            mechanisms.formUnion(line.dropFirst(5).split(separator: " ").map(String.init))
        }
        return mechanisms
    }
}
