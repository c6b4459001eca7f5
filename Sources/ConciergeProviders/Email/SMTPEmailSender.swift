public import ConciergeCore
import Foundation
public import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// Sends transactional email over SMTP submission (RFC 5321, RFC 6409), configured from
/// `SMTP_URL` (see `SMTPURL` for the format and the TLS rule).
///
/// One connection per email: greeting, `EHLO`, `STARTTLS` and `EHLO` again (or TLS from the
/// first byte for `smtps://`), `AUTH PLAIN` or `AUTH LOGIN` when credentials are configured,
/// `MAIL FROM`, `RCPT TO`, `DATA`, `QUIT`. The certificate is always verified, against the
/// system trust store or the roots given at init; verification cannot be turned off.
///
/// Error mapping:
/// - any 4xx reply, connection refused or closed, time-out: `.unavailable` `email_unavailable`
///   (the notification outbox retries; nothing is retried here).
/// - a 5xx reply to `RCPT TO` (550 unknown mailbox, 553 bad address, …) or an address that is
///   not plausible to begin with: `.invalidInput` `invalid_email`.
/// - 535 (and every other auth failure), STARTTLS required but not offered, a certificate that
///   does not verify, no usable AUTH mechanism: `.upstreamFailed` `email_failed`, misconfigured.
/// - any other 5xx (sender or message refused): `.upstreamFailed` `email_failed`.
///
/// Once the server has accepted the message (`250` after the data), the send counts as done
/// even if `QUIT` then fails, so the outbox never delivers the same email twice for that reason.
public struct SMTPEmailSender: EmailSender {
    private let url: SMTPURL
    private let tlsContext: NIOSSLContext
    private let timeout: Duration
    private let ehloName: String
    private let logger: Logger

    /// - Parameters:
    ///   - url: the parsed `SMTP_URL`.
    ///   - trustRootsPEM: PEM certificates to trust instead of the system store, for a private
    ///     CA or the self-signed certificate of a test server. Hostname checks stay on.
    ///   - timeout: the whole exchange, connecting included.
    ///   - ehloName: the name this client gives in `EHLO`.
    public init(
        url: SMTPURL,
        trustRootsPEM: [UInt8]? = nil,
        timeout: Duration = .seconds(10),
        ehloName: String = "localhost",
        logger: Logger = Logger(label: "concierge.providers.smtp")
    ) throws {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .fullVerification
        if let trustRootsPEM {
            configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(trustRootsPEM))
        }
        self.tlsContext = try NIOSSLContext(configuration: configuration)
        self.url = url
        self.timeout = timeout
        self.ehloName = ehloName
        self.logger = logger
    }

    /// Parses `smtpURL` (`SMTP_URL`); throws `SMTPURLError` with a fixable description.
    public init(
        smtpURL: String, trustRootsPEM: [UInt8]? = nil, timeout: Duration = .seconds(10),
        logger: Logger = Logger(label: "concierge.providers.smtp")
    ) throws {
        try self.init(url: SMTPURL(smtpURL), trustRootsPEM: trustRootsPEM, timeout: timeout, logger: logger)
    }

    public func sendEmail(to address: String, subject: String, textBody: String) async throws {
        try await sendEmail(to: address, subject: subject, textBody: textBody, deliveryKey: nil)
    }

    /// With a `deliveryKey` (the outbox's dedupe key) the Message-ID is derived from it, so a
    /// notification sent again after a crash carries the same Message-ID as the first time and
    /// receivers that drop duplicate Message-IDs show it once. SMTP itself cannot refuse the
    /// repeat: delivery stays at-least-once up to that point.
    public func sendEmail(to address: String, subject: String, textBody: String, deliveryKey: String?) async throws {
        guard EmailErrors.isPlausibleAddress(address) else { throw EmailErrors.invalidAddress }
        let domain = url.from.split(separator: "@").last.map(String.init) ?? "localhost"
        let message = SMTPMessage.render(
            from: url.from, to: address, subject: subject, textBody: textBody, date: Date(),
            messageID: SMTPMessage.messageID(deliveryKey: deliveryKey, domain: domain))
        do {
            try await deliver(to: address, message: message)
        } catch {
            throw mapped(error)
        }
    }

    /// The full message: text and HTML as MIME alternatives, attachments base64 in
    /// multipart/mixed (see `SMTPMultipartMessage`); the Message-ID as above.
    public func sendEmail(_ email: EmailContent, deliveryKey: String?) async throws {
        guard !email.isPlainText else {
            return try await sendEmail(
                to: email.to, subject: email.subject, textBody: email.textBody, deliveryKey: deliveryKey)
        }
        guard EmailErrors.isPlausibleAddress(email.to) else { throw EmailErrors.invalidAddress }
        let domain = url.from.split(separator: "@").last.map(String.init) ?? "localhost"
        let message = try SMTPMultipartMessage.render(
            from: url.from, email: email, date: Date(),
            messageID: SMTPMessage.messageID(deliveryKey: deliveryKey, domain: domain))
        do {
            try await deliver(to: email.to, message: message)
        } catch {
            throw mapped(error)
        }
    }

    // MARK: - The exchange

    private func deliver(to address: String, message: String) async throws {
        let deadline = ContinuousClock.now + timeout
        let (replies, continuation) = AsyncThrowingStream<SMTPReply, any Error>.makeStream()
        let implicitTLS = url.security == .implicitTLS
        let tlsContext = self.tlsContext
        let serverHostname = Self.serverHostname(for: url.host)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.milliseconds(Self.milliseconds(timeout)))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if implicitTLS {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: tlsContext, serverHostname: serverHostname))
                    }
                    try channel.pipeline.syncOperations.addHandler(SMTPReplyDecoder(replies: continuation))
                }
            }
            .connect(host: url.host, port: url.port).get()

        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    var conversation = SMTPConversation(channel: channel, replies: replies.makeAsyncIterator())
                    try await self.converse(
                        &conversation, to: address, message: message, serverHostname: serverHostname)
                }
                group.addTask {
                    try await Task.sleep(until: deadline, clock: .continuous)
                    channel.close(promise: nil)
                    throw SMTPFailure.timedOut
                }
                defer { group.cancelAll() }
                try await group.next()
            }
        } catch {
            channel.close(promise: nil)
            throw error
        }
        // Accepted: say goodbye without letting a slow or rude server turn success into failure.
        channel.writeAndFlush(channel.allocator.buffer(string: "QUIT\r\n")).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    private func converse(
        _ conversation: inout SMTPConversation, to address: String, message: String, serverHostname: String?
    ) async throws {
        let greeting = try await conversation.reply()
        guard greeting.code == 220 else { throw SMTPFailure.reply(greeting, .greeting) }
        var capabilities = SMTPConversation.capabilities(
            of: try await conversation.expect([250], after: "EHLO \(ehloName)", stage: .ehlo))
        var encrypted = url.security == .implicitTLS

        if case .startTLS(let required) = url.security {
            if capabilities.contains("STARTTLS") {
                try await conversation.expect([220], after: "STARTTLS", stage: .startTLS)
                try await conversation.startTLS(context: tlsContext, serverHostname: serverHostname)
                encrypted = true
                // RFC 3207: forget what was learnt before TLS and ask again.
                capabilities = SMTPConversation.capabilities(
                    of: try await conversation.expect([250], after: "EHLO \(ehloName)", stage: .ehlo))
            } else if required {
                throw SMTPFailure.startTLSNotOffered
            }
        }

        if let username = url.username {
            guard encrypted || url.isLoopback else { throw SMTPFailure.credentialsWithoutTLS }
            try await authenticate(
                &conversation, username: username, password: url.password ?? "",
                mechanisms: SMTPConversation.authMechanisms(in: capabilities))
        }

        try await conversation.expect([250], after: "MAIL FROM:<\(url.from)>", stage: .mailFrom)
        try await conversation.expect([250, 251], after: "RCPT TO:<\(address)>", stage: .rcptTo)
        try await conversation.expect([354], after: "DATA", stage: .data)
        // `message` ends with CRLF, so this adds the terminating `.` line.
        try await conversation.expect([250], after: message + ".", stage: .message)
    }

    private func authenticate(
        _ conversation: inout SMTPConversation, username: String, password: String, mechanisms: Set<String>
    ) async throws {
        if mechanisms.contains("PLAIN") {
            let token = Data("\u{0}\(username)\u{0}\(password)".utf8).base64EncodedString()
            try await conversation.expect([235], after: "AUTH PLAIN \(token)", stage: .auth)
        } else if mechanisms.contains("LOGIN") {
            try await conversation.expect([334], after: "AUTH LOGIN", stage: .auth)
            try await conversation.expect([334], after: Data(username.utf8).base64EncodedString(), stage: .auth)
            try await conversation.expect([235], after: Data(password.utf8).base64EncodedString(), stage: .auth)
        } else {
            throw SMTPFailure.authNotOffered
        }
    }

    // MARK: - Errors

    /// The one place that turns what went wrong into a `ConciergeError`, with a log line that
    /// has the stage and reply code but never credentials or the server's text.
    private func mapped(_ error: any Error) -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        if let error = error as? ConciergeError { return error }
        let result: ConciergeError
        var metadata: Logger.Metadata = ["host": "\(url.host)", "port": "\(url.port)"]
        switch error {
        case SMTPFailure.reply(let reply, let stage):
            metadata["smtp_code"] = "\(reply.code)"
            metadata["stage"] = "\(stage.rawValue)"
            if reply.isTransient {
                result = EmailErrors.unavailable()
            } else if stage == .auth || reply.code == 535 || reply.code == 530 {
                result = EmailErrors.misconfigured
            } else if stage == .rcptTo {
                result = EmailErrors.invalidAddress
            } else if stage == .greeting || stage == .ehlo || stage == .startTLS {
                result = EmailErrors.misconfigured
            } else {
                result = EmailErrors.rejected
            }
        case SMTPFailure.startTLSNotOffered, SMTPFailure.authNotOffered, SMTPFailure.credentialsWithoutTLS:
            metadata["problem"] = "\(error)"
            result = EmailErrors.misconfigured
        case is NIOSSLError, is NIOSSLExtraError:
            // The certificate did not verify or no TLS could be agreed: a configuration problem
            // (or someone in the middle), never something to retry blindly.
            metadata["tls_error"] = "\(error)"
            result = EmailErrors.misconfigured
        default:
            metadata["transport_error"] = "\(error)"
            result = EmailErrors.unavailable()
        }
        let level: Logger.Level =
            switch result.category {
            case .invalidInput: .info
            case .upstreamFailed: .error
            default: .warning
            }
        logger.log(level: level, "SMTP send failed", metadata: metadata.merging(["mapped_to": "\(result.code)"]) { $1 })
        return result
    }

    /// SNI and the certificate's name are checked against a host name; for an IP address the
    /// certificate is checked against the connected address instead, and SNI is left out.
    private static func serverHostname(for host: String) -> String? {
        (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(1, min(seconds, Int64.max / 2_000) * 1_000 + attoseconds / 1_000_000_000_000_000)
    }
}
