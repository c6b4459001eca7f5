import Crypto
public import Foundation

/// What an `Idempotency-Key` claim found.
public enum IdempotencyClaim: Sendable, Equatable {
    /// The key is new and now ours; run the request.
    case claimed
    /// The same request ran before; here is its answer.
    case replay(response: String)
    /// The key was used with another body.
    case mismatch
    /// The same request is running right now (a concurrent retry).
    case inProgress
}

/// An `Idempotency-Key` to claim for a request. Keys are scoped by route (`rides.app-book`), so
/// one key sent to two routes gives two independent answers.
public struct IdempotencyClaimRequest: Sendable, Equatable {
    public let scope: String
    public let accountID: String
    public let key: String
    public let requestHash: String
    public let now: Date
    /// An unanswered claim older than this is taken over.
    public let staleBefore: Date

    public init(scope: String, accountID: String, key: String, requestHash: String, now: Date, staleBefore: Date) {
        self.scope = scope
        self.accountID = accountID
        self.key = key
        self.requestHash = requestHash
        self.now = now
        self.staleBefore = staleBefore
    }
}

/// A claim together with the answer it stores: written in the same transaction as the work, so
/// the key is taken exactly when the work is done.
public struct IdempotencyAnswer: Sendable, Equatable {
    public let claim: IdempotencyClaimRequest
    /// The bytes the HTTP layer rendered.
    public let response: String
    /// The claim was taken earlier, in a transaction of its own (before a call to an outside
    /// provider); the answer completes it, if it is still this request's.
    public let claimedBefore: Bool

    public init(claim: IdempotencyClaimRequest, response: String, claimedBefore: Bool = false) {
        self.claim = claim
        self.response = response
        self.claimedBefore = claimedBefore
    }
}

/// `Idempotency-Key` claims and their stored answers. The answer is whatever the HTTP layer
/// rendered; the store keeps its bytes and never looks inside.
public protocol IdempotencyKeyStore: Sendable {
    /// Claims the key for this request. A claim still unanswered since before `staleBefore` is
    /// taken over: its server died mid-request, and the client's retry must not wait a day.
    func claim(_ request: IdempotencyClaimRequest) async throws -> IdempotencyClaim
    /// What a claim would find, without claiming: nil when the key is free (or abandoned).
    func lookUp(_ request: IdempotencyClaimRequest) async throws -> IdempotencyClaim?
    func complete(scope: String, accountID: String, key: String, response: String) async throws
    /// Frees an unanswered claim, so the client's retry runs for real.
    func release(scope: String, accountID: String, key: String) async throws
    /// Forgets keys created before `before`, in every scope.
    func prune(before: Date) async throws
}

/// The `Idempotency-Key` rules every route that takes a key answers with (`docs/api/errors.md`).
extension ConciergeError {
    /// A key sent again with another request body: 422, as the IETF Idempotency-Key draft
    /// (draft-ietf-httpapi-idempotency-key-header, "Error Scenarios") says — the request is
    /// well-formed, but it cannot be carried out under a key that already stands for another.
    public static func idempotencyKeyReused(_ what: String) -> ConciergeError {
        ConciergeError(
            .unprocessable, code: "idempotency_key_reused",
            message: "This Idempotency-Key was already used for a different \(what). Use a new key for a new request.")
    }

    /// The first request under this key is still running (a concurrent retry): 409, as the
    /// draft says.
    public static func idempotencyKeyInProgress(_ what: String) -> ConciergeError {
        ConciergeError(
            .conflict, code: "request_in_progress",
            message: "A \(what) with this Idempotency-Key is still being processed. Retry in a moment.")
    }

    public static let invalidIdempotencyKey = ConciergeError(
        .invalidInput, code: "invalid_idempotency_key", message: "The Idempotency-Key must be 1 to 255 characters.")
}

/// What tells a retry from another request under the same key: the SHA-256 of the body as the
/// route decoded it, re-encoded with sorted keys, so spacing and key order do not matter.
public enum IdempotencyFingerprint {
    public static func of(canonicalBody: Data) -> String {
        SHA256.hash(data: canonicalBody).lowercaseHex
    }
}
