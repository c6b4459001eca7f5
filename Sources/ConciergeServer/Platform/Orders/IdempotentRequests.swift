import ConciergeCore
import ConciergeModels
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The `Idempotency-Key` rules of a route, on the platform's key store: the same key with the
/// same body answers what the first request answered; with another body, 422
/// `idempotency_key_reused`; while the first still runs, 409 `request_in_progress`. The body is
/// compared by its fingerprint (`IdempotencyFingerprint`), never stored. (Stays keeps a key with
/// its reservation, in the reservation's transaction: `StaysStore.reservation(accountID:…)`.)
struct IdempotentRequests: Sendable {
    let keys: any IdempotencyKeyStore
    let clock: any TimeSource
    /// What the route makes, for the messages ("seat checkout").
    let what: String
    let scope: String

    /// An unanswered claim older than this belongs to a request whose server died.
    static let claimLifetime: TimeInterval = 120

    /// Runs `work` once per key and body. Without a key it just runs. `body` is the decoded
    /// request, re-encoded for the fingerprint.
    func run(
        key: String?, accountID: String, body: some Encodable, work: () async throws -> Response
    ) async throws -> Response {
        guard let key else { return try await work() }
        guard !key.isEmpty, key.count <= 255 else { throw ConciergeError.invalidIdempotencyKey }
        let now = clock.now
        let claim = IdempotencyClaimRequest(
            scope: scope, accountID: accountID, key: key,
            requestHash: IdempotencyFingerprint.of(canonicalBody: try Wire.encoder.encode(body)), now: now,
            staleBefore: now.addingTimeInterval(-Self.claimLifetime))
        switch try await keys.claim(claim) {
        case .mismatch:
            throw ConciergeError.idempotencyKeyReused(what)
        case .inProgress:
            throw ConciergeError.idempotencyKeyInProgress(what)
        case .replay(let stored):
            if let response = StoredAnswer(stored)?.response { return response }
            return try await work()
        case .claimed:
            let response: Response
            do {
                response = try await work()
            } catch {
                // A refused request does not bind the key: the client's corrected retry runs.
                try? await keys.release(scope: scope, accountID: accountID, key: key)
                throw error
            }
            guard (200..<300).contains(response.status.code) else {
                try? await keys.release(scope: scope, accountID: accountID, key: key)
                return response
            }
            let (answer, rebuilt) = try await StoredAnswer.capture(response)
            try await keys.complete(scope: scope, accountID: accountID, key: key, response: answer.text)
            return rebuilt
        }
    }
}

/// An answer as the key store keeps it: `<status>\n<body>`.
private struct StoredAnswer {
    let status: Int
    let body: String

    init(status: Int, body: String) {
        self.status = status
        self.body = body
    }

    init?(_ text: String) {
        guard let newline = text.firstIndex(of: "\n"), let status = Int(text[..<newline]) else { return nil }
        self.status = status
        self.body = String(text[text.index(after: newline)...])
    }

    var text: String { "\(status)\n\(body)" }

    var response: Response {
        Response(
            status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// Reads a response's body to keep it, and gives back a response that still has it.
    static func capture(_ response: Response) async throws -> (StoredAnswer, Response) {
        let collector = BodyCollector()
        try await response.body.write(collector)
        let answer = StoredAnswer(status: response.status.code, body: String(buffer: collector.buffer))
        var rebuilt = response
        rebuilt.body = .init(byteBuffer: collector.buffer)
        return (answer, rebuilt)
    }
}

/// A `ResponseBodyWriter` that keeps what is written (a class: the body consumes its writer).
private final class BodyCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        self.buffer.writeBuffer(&buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
