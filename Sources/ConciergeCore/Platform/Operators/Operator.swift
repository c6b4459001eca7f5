public import Foundation

/// A named operator of `/ops`: signs in with a name and password and is named in the audit
/// log. Each has a bare account of its own (no sign-in method, no personal data), which its
/// `/ops` sessions name, since every session row in the sessions table names an account.
public struct Operator: Sendable, Equatable {
    public let id: String
    /// Lower-case, what the operator types to sign in and what the audit log shows.
    public let name: String
    public let accountID: String
    public let createdAt: Date

    public init(id: String, name: String, accountID: String, createdAt: Date) {
        self.id = id
        self.name = name
        self.accountID = accountID
        self.createdAt = createdAt
    }

    /// The account the admin token's sign-in names, while no named operator exists.
    public static let adminTokenAccountID = "acc_operator_admin_token"
    public static let adminTokenName = "admin token"
}

/// Who did what to which order (or ride, show, session), and when. The operator's name is
/// copied into the row, so the log still reads right after the operator is gone. `detail` holds
/// no personal data (no driver or guest names): states, gates, amounts.
public struct OperatorAuditEntry: Sendable, Equatable {
    public let at: Date
    public let operatorAccountID: String
    public let operatorName: String
    /// A key such as `order.cancel` (the pages word it in the visitor's language).
    public let action: String
    /// The order id, ride reference or show id acted on; empty for a sign-in or sign-out.
    public let subject: String
    public let detail: String

    public init(
        at: Date, operatorAccountID: String, operatorName: String, action: String, subject: String, detail: String
    ) {
        self.at = at
        self.operatorAccountID = operatorAccountID
        self.operatorName = operatorName
        self.action = action
        self.subject = subject
        self.detail = detail
    }
}
