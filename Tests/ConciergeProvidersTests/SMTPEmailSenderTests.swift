import ConciergeCore
import ConciergeProviders
import Foundation
import Testing

/// The SMTP adapter against a real SMTP server started by the test suite (`SMTPTestServer`, on
/// 127.0.0.1), over real sockets and real TLS with a test-only self-signed certificate.
@Suite struct SMTPEmailSenderTests {
    static let trustRoot = Array(SMTPTestServer.certificatePEM.utf8)

    private func sender(_ url: String, trusting: Bool = true, timeout: Duration = .seconds(300)) throws
        -> SMTPEmailSender
    {
        try SMTPEmailSender(smtpURL: url, trustRootsPEM: trusting ? Self.trustRoot : nil, timeout: timeout)
    }

    private func sendError(_ sender: SMTPEmailSender, to address: String = "guest@example.org") async
        -> ConciergeError?
    {
        await #expect(throws: ConciergeError.self) {
            try await sender.sendEmail(to: address, subject: "Hello", textBody: "Body")
        }
    }

    @Test func deliversIntactOverSTARTTLSWithAuthPlain() async throws {
        let server = try await SMTPTestServer.start(.init(username: "mailer", password: "s3cr:t@pw"))
        defer { Task { try? await server.stop() } }
        let body = """
            Hello Zoë,
            .a line starting with a dot
            ..two dots
            .
            trailing space 
            = equals and a very long line \(String(repeating: "long ", count: 30))end
            emoji 👍 done
            """
        let subject = "Your booking BK-123 — confirmed ✓"

        try await sender(
            "smtp://mailer:s3cr%3At%40pw@127.0.0.1:\(server.port)?from=noreply@example.com&starttls=required"
        ).sendEmail(to: "guest@example.org", subject: subject, textBody: body)

        let message = try #require(server.messages.first)
        #expect(server.messages.count == 1)
        #expect(message.mailFrom == "noreply@example.com")
        #expect(message.recipients == ["guest@example.org"])
        #expect(message.overTLS)
        #expect(message.authenticatedAs == "mailer")
        // Credentials only after TLS: STARTTLS comes before any AUTH.
        let commands = server.commands
        let startTLS = try #require(commands.firstIndex(of: "STARTTLS"))
        let auth = try #require(commands.firstIndex { $0.hasPrefix("AUTH") })
        #expect(startTLS < auth)
        #expect(commands.filter { $0.hasPrefix("EHLO") }.count == 2)

        let (headers, encodedBody) = try Self.split(message.data)
        #expect(headers["From"] == "noreply@example.com")
        #expect(headers["To"] == "guest@example.org")
        #expect(headers["MIME-Version"] == "1.0")
        #expect(headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(headers["Content-Transfer-Encoding"] == "quoted-printable")
        #expect(headers["Date"]?.hasSuffix("+0000") == true)
        let messageID = try #require(headers["Message-ID"])
        #expect(messageID.hasPrefix("<") && messageID.hasSuffix("@example.com>"))
        let rawSubject = try #require(headers["Subject"])
        #expect(rawSubject.hasPrefix("=?UTF-8?B?"))
        #expect(rawSubject.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(Self.decodeEncodedWords(rawSubject) == subject)
        #expect(message.data.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(message.data.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 78 })
        #expect(Self.decodeQuotedPrintable(encodedBody) == body.replacingOccurrences(of: "\n", with: "\r\n"))
    }

    @Test func deliversOverImplicitTLSWithAuthLogin() async throws {
        let server = try await SMTPTestServer.start(
            .init(username: "mailer", password: "pw", implicitTLS: true, authMechanisms: "LOGIN"))
        defer { Task { try? await server.stop() } }
        try await sender("smtps://mailer:pw@localhost:\(server.port)?from=noreply@example.com")
            .sendEmail(to: "guest@example.org", subject: "ASCII subject", textBody: "Hi")
        let message = try #require(server.messages.first)
        #expect(message.overTLS)
        #expect(message.authenticatedAs == "mailer")
        #expect(server.commands.contains("AUTH LOGIN"))
        #expect(!server.commands.contains("STARTTLS"))
        let (headers, _) = try Self.split(message.data)
        #expect(headers["Subject"] == "ASCII subject")
    }

    @Test func usesSTARTTLSWheneverOfferedEvenOnLoopback() async throws {
        let server = try await SMTPTestServer.start()
        defer { Task { try? await server.stop() } }
        try await sender("smtp://localhost:\(server.port)?from=noreply@example.com")
            .sendEmail(to: "guest@example.org", subject: "s", textBody: "Hi")
        #expect(try #require(server.messages.first).overTLS)
    }

    @Test func rejectedRecipientIsInvalidEmail() async throws {
        let server = try await SMTPTestServer.start(.init(rejectedRecipients: ["nobody@example.org"]))
        defer { Task { try? await server.stop() } }
        let error = try #require(
            await sendError(
                try sender("smtp://127.0.0.1:\(server.port)?from=noreply@example.com"), to: "nobody@example.org"))
        #expect(error.category == .invalidInput)
        #expect(error.code == "invalid_email")
        #expect(server.messages.isEmpty)
    }

    @Test(arguments: ["451 4.3.0 Try again later", "421 4.7.0 Too busy, closing"])
    func transientReplyIsUnavailable(reply: String) async throws {
        let server = try await SMTPTestServer.start(.init(mailFromReply: reply))
        defer { Task { try? await server.stop() } }
        let error = try #require(
            await sendError(try sender("smtp://127.0.0.1:\(server.port)?from=noreply@example.com")))
        #expect(error.category == .unavailable(retryAfterSeconds: nil))
        #expect(error.code == "email_unavailable")
    }

    @Test func transientGreetingIsUnavailable() async throws {
        let server = try await SMTPTestServer.start(.init(greeting: "421 4.3.2 Service not available"))
        defer { Task { try? await server.stop() } }
        let error = try #require(
            await sendError(try sender("smtp://127.0.0.1:\(server.port)?from=noreply@example.com")))
        #expect(error.code == "email_unavailable")
    }

    @Test func wrongPasswordIsMisconfiguredAndHidesPassword() async throws {
        let server = try await SMTPTestServer.start(.init(username: "mailer", password: "right"))
        defer { Task { try? await server.stop() } }
        let error = try #require(
            await sendError(try sender("smtp://mailer:wrong-pw@127.0.0.1:\(server.port)?from=noreply@example.com")))
        #expect(error.category == .upstreamFailed)
        #expect(error.code == "email_failed")
        #expect(error.message.contains("misconfigured"))
        #expect(!error.description.contains("wrong-pw"))
        #expect(server.messages.isEmpty)
    }

    @Test func serverGoneIsUnavailable() async throws {
        let server = try await SMTPTestServer.start()
        let port = server.port
        try await server.stop()
        let error = try #require(await sendError(try sender("smtp://127.0.0.1:\(port)?from=noreply@example.com")))
        #expect(error.category == .unavailable(retryAfterSeconds: nil))
        #expect(error.code == "email_unavailable")
    }

    @Test func silentServerTimesOutAsUnavailable() async throws {
        // A server that never greets: the whole exchange is bounded by the time-out.
        let server = try await SMTPTestServer.start(.init(greeting: nil))
        defer { Task { try? await server.stop() } }
        let started = ContinuousClock.now
        let error = try #require(
            await sendError(
                try sender("smtp://127.0.0.1:\(server.port)?from=noreply@example.com", timeout: .milliseconds(500))))
        #expect(error.code == "email_unavailable")
        // Without the time-out it would wait for ever; the bound is loose because the whole
        // suite runs at once and a busy machine can take long to schedule anything.
        #expect(ContinuousClock.now - started < .seconds(240))
    }

    @Test func serverWithoutSTARTTLSIsRefusedWhenTLSIsRequired() async throws {
        let server = try await SMTPTestServer.start(.init(offerSTARTTLS: false))
        defer { Task { try? await server.stop() } }
        // What a non-loopback host gets by default, forced here for a local server.
        let error = try #require(
            await sendError(try sender("smtp://127.0.0.1:\(server.port)?from=noreply@example.com&starttls=required")))
        #expect(error.category == .upstreamFailed)
        #expect(error.code == "email_failed")
        #expect(!server.commands.contains { $0.hasPrefix("MAIL") })
        #expect(server.messages.isEmpty)
    }

    @Test func serverWithoutSTARTTLSIsAcceptedForLoopbackOrOptional() async throws {
        let server = try await SMTPTestServer.start(.init(offerSTARTTLS: false))
        defer { Task { try? await server.stop() } }
        try await sender("smtp://127.0.0.1:\(server.port)?from=noreply@example.com")
            .sendEmail(to: "a@example.org", subject: "s", textBody: "b")
        try await sender("smtp://127.0.0.1:\(server.port)?from=noreply@example.com&starttls=optional")
            .sendEmail(to: "b@example.org", subject: "s", textBody: "b")
        #expect(server.messages.map(\.recipients) == [["a@example.org"], ["b@example.org"]])
        #expect(server.messages.allSatisfy { !$0.overTLS })
    }

    @Test func untrustedCertificateIsRefused() async throws {
        let server = try await SMTPTestServer.start()
        defer { Task { try? await server.stop() } }
        let error = try #require(
            await sendError(
                try sender(
                    "smtp://127.0.0.1:\(server.port)?from=noreply@example.com&starttls=required", trusting: false)))
        #expect(error.code == "email_failed")
        #expect(server.messages.isEmpty)
    }

    @Test func implausibleAddressIsRefusedBeforeConnecting() async throws {
        let server = try await SMTPTestServer.start()
        defer { Task { try? await server.stop() } }
        let error = try #require(
            await sendError(
                try sender("smtp://127.0.0.1:\(server.port)?from=noreply@example.com"), to: "a@x.org>\r\nDATA"))
        #expect(error.code == "invalid_email")
        #expect(server.commands.isEmpty)
    }

    // MARK: - SMTPURL

    @Test func parsesFullURL() throws {
        let url = try SMTPURL("smtp://us%40er:p%3Ass@smtp.example.com:2525?from=noreply@example.com")
        #expect(url.host == "smtp.example.com")
        #expect(url.port == 2525)
        #expect(url.username == "us@er")
        #expect(url.password == "p:ss")
        #expect(url.from == "noreply@example.com")
        #expect(url.security == .startTLS(required: true))
    }

    @Test func appliesDefaultsAndTheTLSRule() throws {
        #expect(try SMTPURL("smtp://smtp.example.com?from=a@b.co").port == 587)
        #expect(try SMTPURL("smtps://smtp.example.com?from=a@b.co").port == 465)
        #expect(try SMTPURL("smtps://smtp.example.com?from=a@b.co").security == .implicitTLS)
        #expect(try SMTPURL("smtp://localhost:1025?from=a@b.co").security == .startTLS(required: false))
        #expect(try SMTPURL("smtp://127.0.0.1:1025?from=a@b.co").security == .startTLS(required: false))
        #expect(try SMTPURL("smtp://[::1]:1025?from=a@b.co").security == .startTLS(required: false))
        #expect(
            try SMTPURL("smtp://localhost:1025?from=a@b.co&starttls=required").security == .startTLS(required: true))
        #expect(
            try SMTPURL("smtp://mail.example.com?from=a@b.co&starttls=optional").security == .startTLS(required: false))
        #expect(try SMTPURL("smtp://mail.example.com?from=a@b.co").username == nil)
    }

    @Test(arguments: [
        ("", "empty"),
        ("http://host?from=a@b.co", "scheme"),
        ("smtp://?from=a@b.co", "host"),
        ("smtp://host", "from="),
        ("smtp://host?from=not-an-address", "from="),
        ("smtp://host:70000?from=a@b.co", "port"),
        ("smtp://host?from=a@b.co&starttls=maybe", "starttls"),
        ("smtps://host?from=a@b.co&starttls=optional", "starttls"),
        ("smtp://host?from=a@b.co&tls=1", "unknown option"),
        ("smtp://host/path?from=a@b.co", "path"),
    ])
    func rejectsBadURLsWithClearErrors(text: String, mentions: String) throws {
        let error = #expect(throws: SMTPURLError.self) { try SMTPURL(text) }
        #expect(error?.message.contains(mentions) == true, "\(error?.message ?? "no error")")
    }

    @Test func errorsNeverRepeatThePassword() throws {
        let error = #expect(throws: SMTPURLError.self) { try SMTPURL("smtp://user:hunter2@host?from=bad") }
        #expect(error?.description.contains("hunter2") == false)
    }

    // MARK: - Helpers

    /// Splits a received message into unfolded headers and the raw body.
    static func split(_ data: String) throws -> ([String: String], String) {
        let parts = data.components(separatedBy: "\r\n\r\n")
        try #require(parts.count >= 2)
        let unfolded = parts[0].replacingOccurrences(of: "\r\n ", with: " ")
        var headers: [String: String] = [:]
        for line in unfolded.components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (headers, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// RFC 2047 B-encoded words (UTF-8 only), separated by folding white space.
    static func decodeEncodedWords(_ text: String) -> String? {
        var bytes: [UInt8] = []
        for word in text.split(separator: " ") {
            guard word.hasPrefix("=?UTF-8?B?"), word.hasSuffix("?="),
                let data = Data(base64Encoded: String(word.dropFirst(10).dropLast(2)))
            else { return nil }
            bytes += data
        }
        return String(bytes: bytes, encoding: .utf8)
    }

    /// RFC 2045 quoted-printable, independent of the code under test.
    static func decodeQuotedPrintable(_ text: String) -> String? {
        let joined = text.replacingOccurrences(of: "=\r\n", with: "")
        var bytes: [UInt8] = []
        var iterator = Array(joined.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "=") {
                guard let high = iterator.next(), let low = iterator.next(),
                    let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(bytes: bytes, encoding: .utf8)
    }
}
