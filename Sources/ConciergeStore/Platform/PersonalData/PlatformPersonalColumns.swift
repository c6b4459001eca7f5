extension PersonalDataColumn {
    /// The platform's tables: identity, accounts, sessions, holds, orders, payments, outbox.
    static let platform: [PersonalDataColumn] =
        table("settings", operational: ["key"], secret: ["value"])
        + table(
            "code_challenges", operational: ["id", "sent_at", "expires_at", "wrong_guesses"], personal: ["phone"],
            secret: ["code_hash"])
        + table("rate_events", operational: ["occurred_at", "attempt_id"], personal: ["key"])
        + table("webhook_events", operational: ["provider", "event_id", "received_at", "applied_at"])
        + table("accounts", operational: ["created_at", "deleted_at"], account: ["id"], personal: ["display_name"])
        + table(
            "account_credentials", operational: ["kind", "verified_at", "created_at"], account: ["account_id"],
            personal: ["identifier"], secret: ["secret_hash"])
        + table(
            "account_tokens", operational: ["purpose", "created_at", "expires_at", "used_at"],
            account: ["account_id"], personal: ["identifier"], secret: ["token_hash"])
        + table(
            "sessions", operational: ["id", "kind", "vertical", "created_at", "expires_at", "revoked_at"],
            account: ["account_id"], secret: ["token_hash"])
        + table(
            "refresh_tokens", operational: ["session_id", "issued_at", "expires_at", "spent_at"],
            secret: ["token_hash"])
        + table(
            "idempotency_keys_v2", operational: ["scope", "key", "created_at"], account: ["account_id"],
            personal: ["response"], secret: ["request_hash"])
        + table(
            "holds", operational: ["id", "state", "created_at", "expires_at", "ended_at", "order_id"],
            account: ["owner_id"])
        + table("hold_items", operational: ["hold_id", "unit_key", "quantity"])
        + table("inventory_units", operational: ["unit_key", "capacity", "held", "sold"])
        + table(
            "orders",
            operational: [
                "id", "vertical", "reference", "amount_cents", "currency", "state", "created_at", "updated_at",
                "status", "hold_id", "expires_at", "paid_at",
            ], account: ["account_id"], secret: ["public_secret"])
        + table(
            "order_lines",
            operational: [
                "order_id", "position", "kind", "description", "quantity", "unit_amount_cents", "amount_cents",
            ])
        + table(
            "order_events", operational: ["seq", "order_id", "at", "type"], account: ["actor"],
            retained: ["detail": "what happened to the order and why (refund reasons), for accounting"])
        + table(
            "payments",
            operational: [
                "id", "provider", "provider_payment_id", "owner_vertical", "order_id", "amount_cents", "currency",
                "status", "refunded_cents", "description", "metadata", "expires_at", "created_at",
            ], secret: ["checkout_url", "redirect_url"])
        + table(
            "refunds",
            operational: ["id", "payment_id", "provider_refund_id", "amount_cents", "currency", "reason", "created_at"])
        + table(
            "refunds_owed",
            operational: [
                "key", "order_id", "payment_id", "amount_cents", "currency", "reason", "created_at", "attempts",
                "next_attempt_at", "paid_at", "refund_id",
            ])
        + table(
            "sandbox_refunds", operational: ["provider_payment_id", "idempotency_key", "amount_cents", "created_at"])
        + table(
            "notification_outbox",
            operational: [
                "seq", "dedupe_key", "channel", "status", "attempts", "next_attempt_at", "created_at", "sent_at",
                "last_error",
            ], personal: ["recipient", "subject", "body", "html_body", "push_data"])
        + table(
            "outbox_attachments", operational: ["outbox_seq", "position", "filename", "content_type"],
            personal: ["content_base64", "recipe"])
        + table(
            "outbox_messages", operational: ["seq", "channel", "created_at", "delivery_key"],
            personal: ["recipient", "subject", "body", "html_body", "attachment_names", "push_data"])
}
