import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// A small but real SMTP server for the SMTP adapter's tests, on 127.0.0.1 and a free port.
///
/// It speaks EHLO/HELO, STARTTLS (with the fixed self-signed certificate below), AUTH PLAIN and
/// LOGIN, MAIL, RCPT, DATA (undoing dot-stuffing), RSET, NOOP and QUIT, and records every message
/// it accepts. Options make it reject recipients, answer `MAIL FROM` with a 4xx, or leave out
/// STARTTLS.
final class SMTPTestServer: Sendable {
    struct Options: Sendable {
        var offerSTARTTLS = true
        /// When set, AUTH must succeed with these before MAIL FROM (`530` otherwise).
        var username: String? = nil
        var password: String? = nil
        /// Recipients answered with `550 5.1.1`.
        var rejectedRecipients: Set<String> = []
        /// Answered to MAIL FROM instead of `250`, e.g. `451 4.3.0 Try again later`.
        var mailFromReply: String? = nil
        /// The greeting line; nil for a server that accepts the connection and then says nothing.
        var greeting: String? = "220 localhost ESMTP test server"
        /// TLS from the first byte, as on port 465 (`smtps://`).
        var implicitTLS = false
        /// The mechanisms advertised after `AUTH` in the EHLO reply.
        var authMechanisms = "PLAIN LOGIN"
    }

    struct Message: Sendable {
        let mailFrom: String
        let recipients: [String]
        /// The data as sent, dot-stuffing undone, lines joined with CRLF, without the final `.`.
        let data: String
        let overTLS: Bool
        let authenticatedAs: String?
    }

    let port: Int
    private let channel: any Channel
    private let recorder: Recorder

    private init(port: Int, channel: any Channel, recorder: Recorder) {
        self.port = port
        self.channel = channel
        self.recorder = recorder
    }

    static func start(_ options: Options = Options()) async throws -> SMTPTestServer {
        let tlsContext = try NIOSSLContext(
            configuration: .makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8)).map {
                    .certificate($0)
                },
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem))))
        let recorder = Recorder()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if options.implicitTLS {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tlsContext))
                    }
                    try channel.pipeline.syncOperations.addHandler(
                        SessionHandler(options: options, tlsContext: tlsContext, recorder: recorder))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else {
            try await channel.close().get()
            throw ChannelError.unknownLocalAddress
        }
        return SMTPTestServer(port: port, channel: channel, recorder: recorder)
    }

    var messages: [Message] { recorder.messages }
    /// Every command line received, AUTH payloads masked, in order, over all sessions.
    var commands: [String] { recorder.commands }

    func stop() async throws {
        try await channel.close().get()
    }

    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var storedMessages: [Message] = []
        private var storedCommands: [String] = []

        var messages: [Message] { lock.withLock { storedMessages } }
        var commands: [String] { lock.withLock { storedCommands } }

        func record(_ message: Message) { lock.withLock { storedMessages.append(message) } }
        func record(command: String) { lock.withLock { storedCommands.append(command) } }
    }

    /// One SMTP session, on its channel's event loop.
    private final class SessionHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private enum State {
            case command
            case data
            case authLoginUser
            case authLoginPassword(user: String)
        }

        private let options: Options
        private let tlsContext: NIOSSLContext
        private let recorder: Recorder
        private var state = State.command
        private var pending: [UInt8] = []
        private var overTLS = false
        private var authenticatedAs: String?
        private var mailFrom: String?
        private var recipients: [String] = []
        private var dataLines: [String] = []

        init(options: Options, tlsContext: NIOSSLContext, recorder: Recorder) {
            self.options = options
            self.tlsContext = tlsContext
            self.recorder = recorder
            self.overTLS = options.implicitTLS
        }

        func channelActive(context: ChannelHandlerContext) {
            if let greeting = options.greeting { reply(context, greeting) }
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            pending.append(contentsOf: buffer.readableBytesView)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                handle(context, String(decoding: line, as: UTF8.self))
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }

        private func handle(_ context: ChannelHandlerContext, _ line: String) {
            switch state {
            case .data:
                if line == "." {
                    recorder.record(
                        Message(
                            mailFrom: mailFrom ?? "", recipients: recipients,
                            data: dataLines.joined(separator: "\r\n"), overTLS: overTLS,
                            authenticatedAs: authenticatedAs))
                    resetTransaction()
                    state = .command
                    reply(context, "250 2.0.0 Ok: queued as TEST1")
                } else {
                    dataLines.append(line.hasPrefix(".") ? String(line.dropFirst()) : line)
                }
                return
            case .authLoginUser:
                recorder.record(command: "<auth login user>")
                state = .authLoginPassword(user: decodeBase64(line) ?? "")
                reply(context, "334 UGFzc3dvcmQ6")
                return
            case .authLoginPassword(let user):
                recorder.record(command: "<auth login password>")
                state = .command
                finishAuth(context, user: user, password: decodeBase64(line) ?? "")
                return
            case .command:
                break
            }

            let upper = line.uppercased()
            recorder.record(command: upper.hasPrefix("AUTH PLAIN ") ? "AUTH PLAIN <masked>" : line)
            if upper.hasPrefix("EHLO ") {
                resetTransaction()
                var lines = ["localhost greets you"]
                if options.offerSTARTTLS && !overTLS { lines.append("STARTTLS") }
                lines += ["AUTH \(options.authMechanisms)", "8BITMIME", "SIZE 10240000"]
                let text = lines.enumerated().map { index, text in
                    "250" + (index == lines.count - 1 ? " " : "-") + text
                }
                reply(context, text.joined(separator: "\r\n"))
            } else if upper.hasPrefix("HELO ") {
                reply(context, "250 localhost")
            } else if upper == "STARTTLS" {
                guard options.offerSTARTTLS, !overTLS else { return reply(context, "502 5.5.1 Not offered") }
                reply(context, "220 2.0.0 Ready to start TLS")
                do {
                    try context.pipeline.syncOperations.addHandler(
                        NIOSSLServerHandler(context: tlsContext), position: .first)
                    overTLS = true
                    authenticatedAs = nil
                    resetTransaction()
                } catch {
                    context.close(promise: nil)
                }
            } else if upper.hasPrefix("AUTH PLAIN ") {
                let parts = (decodeBase64(String(line.dropFirst("AUTH PLAIN ".count))) ?? "")
                    .split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
                guard parts.count == 3 else { return reply(context, "501 5.5.2 Bad AUTH PLAIN") }
                finishAuth(context, user: parts[1], password: parts[2])
            } else if upper == "AUTH LOGIN" && options.authMechanisms.contains("LOGIN") {
                state = .authLoginUser
                reply(context, "334 VXNlcm5hbWU6")
            } else if upper.hasPrefix("MAIL FROM:") {
                if let mailFromReply = options.mailFromReply { return reply(context, mailFromReply) }
                if options.username != nil && authenticatedAs == nil {
                    return reply(context, "530 5.7.0 Authentication required")
                }
                mailFrom = Self.address(in: line, after: "MAIL FROM:")
                reply(context, "250 2.1.0 Ok")
            } else if upper.hasPrefix("RCPT TO:") {
                guard mailFrom != nil else { return reply(context, "503 5.5.1 Need MAIL first") }
                let recipient = Self.address(in: line, after: "RCPT TO:")
                if options.rejectedRecipients.contains(recipient) {
                    return reply(context, "550 5.1.1 <\(recipient)>: Recipient address rejected: User unknown")
                }
                recipients.append(recipient)
                reply(context, "250 2.1.5 Ok")
            } else if upper == "DATA" {
                guard !recipients.isEmpty else { return reply(context, "503 5.5.1 Need RCPT first") }
                state = .data
                reply(context, "354 End data with <CR><LF>.<CR><LF>")
            } else if upper == "RSET" {
                resetTransaction()
                reply(context, "250 2.0.0 Ok")
            } else if upper == "NOOP" {
                reply(context, "250 2.0.0 Ok")
            } else if upper == "QUIT" {
                let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
                context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: "221 2.0.0 Bye\r\n")))
                    .whenComplete { _ in loopBound.value.close(promise: nil) }
            } else {
                reply(context, "500 5.5.2 Command not recognized")
            }
        }

        private func finishAuth(_ context: ChannelHandlerContext, user: String, password: String) {
            if user == options.username && password == options.password {
                authenticatedAs = user
                reply(context, "235 2.7.0 Authentication successful")
            } else {
                reply(context, "535 5.7.8 Authentication credentials invalid")
            }
        }

        private func resetTransaction() {
            mailFrom = nil
            recipients = []
            dataLines = []
        }

        private func reply(_ context: ChannelHandlerContext, _ text: String) {
            context.writeAndFlush(
                wrapOutboundOut(context.channel.allocator.buffer(string: text + "\r\n")), promise: nil)
        }

        private func decodeBase64(_ text: String) -> String? {
            Data(base64Encoded: text).map { String(decoding: $0, as: UTF8.self) }
        }

        private static func address(in line: String, after prefix: String) -> String {
            let rest = line.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
            guard rest.hasPrefix("<"), let end = rest.firstIndex(of: ">") else { return rest }
            return String(rest[rest.index(after: rest.startIndex)..<end])
        }
    }

    /// Test-only self-signed certificate for CN=localhost with subjectAltName DNS:localhost and
    /// IP:127.0.0.1, valid for 100 years; generated once with
    /// `openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=localhost -days 36500
    /// -addext "subjectAltName=DNS:localhost,IP:127.0.0.1"`. Never used outside these tests.
    static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIDJzCCAg+gAwIBAgIUd7bfi2K5krA1hrhl0Pgnn3ta5SswDQYJKoZIhvcNAQEL
        BQAwFDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMTAxNDYxMVoYDzIxMjYx
        MDI4MDE0NjExWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwggEiMA0GCSqGSIb3DQEB
        AQUAA4IBDwAwggEKAoIBAQCyHj69P3IsrxX7LBkPwkK9ShY1kVYBrT3MjWCqztSf
        iO7Fx8a4yEzuuCX70BKfy/nfDdJZN1B+vCsJEpUL/pw/AmrbTq3okLJrFO90Q5Dt
        z4p4rXZTJJ9K1LKhrL82rjafPQQEKJNKDDllrGOgF8GBWOSFNOr23OUmudTZh/eR
        Uxf3wKNuqwgKz/2OYN6MvCeR5O4SsM0JVpdFF40ftSpe5HBneT+0sFOTg9hFiWOJ
        8YWUFAqhtt4YhtNW0DRCDNIOZkO18t48J0C+KeJu/lvQrJZyAXURZzrraHEQOb4/
        xz68LAqZwPgcWZaFvM8n5Y6WKIP5hyl/L0hGkVjxpzcjAgMBAAGjbzBtMB0GA1Ud
        DgQWBBS4MxlfqKyP9tgKVGEIa35Dby6U1TAfBgNVHSMEGDAWgBS4MxlfqKyP9tgK
        VGEIa35Dby6U1TAPBgNVHRMBAf8EBTADAQH/MBoGA1UdEQQTMBGCCWxvY2FsaG9z
        dIcEfwAAATANBgkqhkiG9w0BAQsFAAOCAQEAXv0/a7CtCqB/O/SY5w2YrJdEj45h
        zAISTxTwxvjnoHBUJ46X6GpteHU1UxM9Ze7D5Khi5VPRU/ktSU3kAl22ko0X4ITL
        wH6W1HONBh4NsKCeDPyvqJc0/XjnGe1F+iEkdYIHdSHqVARPNt9IedjwvlpGtU0f
        XESQ/Jj9LT4TOKIuUzkeMCGSlcG+hyaqbvffHJgM1DkhAi1BEPdgM3HSxQDQ5wUJ
        Rxk5nWk6w1FPi5dl6G64R9dAFbIC4SXz7NJwZytYR2qjPc9eGY9cP0RTyAcy1HD4
        hEa2xIOBEiujAwFKNXBcuTNwU+GSLO0fAU4EPgvJ19R+6nW8GibAgYL4VA==
        -----END CERTIFICATE-----
        """

    static let privateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCyHj69P3IsrxX7
        LBkPwkK9ShY1kVYBrT3MjWCqztSfiO7Fx8a4yEzuuCX70BKfy/nfDdJZN1B+vCsJ
        EpUL/pw/AmrbTq3okLJrFO90Q5Dtz4p4rXZTJJ9K1LKhrL82rjafPQQEKJNKDDll
        rGOgF8GBWOSFNOr23OUmudTZh/eRUxf3wKNuqwgKz/2OYN6MvCeR5O4SsM0JVpdF
        F40ftSpe5HBneT+0sFOTg9hFiWOJ8YWUFAqhtt4YhtNW0DRCDNIOZkO18t48J0C+
        KeJu/lvQrJZyAXURZzrraHEQOb4/xz68LAqZwPgcWZaFvM8n5Y6WKIP5hyl/L0hG
        kVjxpzcjAgMBAAECggEAHRUh0ACmAcnCCwrTj2Z77drvmWYrkYaEiqZNhwDSaAy8
        VSrIta8ZcKOSACBPNNbh65uezCu4nEODu1gqDJVRVFsZW3Q997UjN1IUbvqr6p3H
        0ZXGYM5KprXn8iH57qcEtXy0RSw4MGT354lS6Ew4r4f2IryAiOI0at2jdV6P+6Lm
        2aY5N9Fkg65BO0nb2mAOL8uVo1tnDG+46IA2lsEBTibq+1lsYL7mN9lBCIsumxpk
        EuNhKzhILBh6Eh/vISbOzbIpYiSutP/Q+KpS14h41QHm1rZozWRTBCjo3TSAXafF
        gLkvAUy63LTTZJjxGmsEk3hPRdcdpQmTJs15W3zrAQKBgQDtLA4BZuYvQh5G84DP
        BAVmitoxnfee/Vh5LpyCLtvb0GwLJ1o1XhE0DHBYYo8rgi3OYX7itxcHJzq+M9hz
        ERK7SPfYIfuq+6RuGa/OATAxX8Vv2jXSdtpvjejePKVGWXr2r3PSGLbyAMaJJGFR
        mnsuWpbnnTZYty4ZteC8t8Ze4wKBgQDAQhAO7iPVAp59Gm0u9thUWn5RPTYZloI1
        TfDhh5QBnzo/E+aF6I7IuvivEa/2xoZIfumW5HMBT3o4McS8NITlRNeQLIy4Hbq1
        mn5dr9XYNCKQp/hN7zJ26zVagdsNvPyCB2yMZqpjiRKovSswBdxXPdw4GcAjF1q7
        Xw6cXND6wQKBgG1F1fIZacauTOrduCQpMx/Kq7sej/8ltMSokB1+33dIcO82o15h
        R8XWUVC3oEUohlhHHUHxn1+BWJRXqMtjO2EkvmRLS/u8U0cS+KgObhjhikL9o7yj
        XAL3vCnggTmHcpsDvXY4Qtn/N3nqVBhX95ckz9BI48g+JbRc0v3AIlqHAoGAPYIl
        LxGjJxfiarXUrozMoxgch5MkxsTvPWyFHzJH+MjfUqTkQH0piTDANQpcmH/lIDZy
        NxM5c/bgbDAH+Ap5ZfxDVt3Z22GvhUA7I3AI41WypUMH3q8jHwabGCypT1jiFBuZ
        78U8yAFnldKHiaKmXsbsuIoMfW2QWpfLzdyoA0ECgYEAwrCwrLDT2TElACflDtPr
        nVuIxk9CtfQ3gq/h+KDrcd9e/DofnvH5QnFNTZ4t4dmLWoKCWfUG7MOga3po49y2
        oFBXtCMvbLZfVyF7lPU5yW4DXzYZj7U4x/TjSLq5k5FxJvRuNkHI5xKCzqGuzS9x
        377dzV5YOp8QyreSBfhW+fQ=
        -----END PRIVATE KEY-----
        """
}
