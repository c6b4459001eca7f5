extension PersonalDataColumn {
    /// Operators are staff, not customers: their handle stays while they operate, and the audit
    /// log keeps who did what. Neither holds anything of a customer (subjects are order ids,
    /// ride references and show ids; details are states, gates and amounts).
    static let operators: [PersonalDataColumn] =
        table(
            "operators", operational: ["id", "created_at"], account: ["account_id"], secret: ["password_hash"],
            retained: ["name": "the operator's sign-in handle, staff data kept while they operate"])
        + table(
            "operator_audit", operational: ["seq", "at", "action", "subject", "detail"],
            account: ["operator_account_id"],
            retained: ["operator_name": "who did what in /ops, for accountability"])
}
