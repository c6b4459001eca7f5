/// Every error response: `{"success": false, "error": "<what to do>", "code": "<machine code>"}`.
public struct ErrorBody: Codable, Sendable, Equatable, Error {
    public var success: Bool
    public var error: String
    public var code: String
    public init(error: String, code: String) {
        self.success = false
        self.error = error
        self.code = code
    }
}
