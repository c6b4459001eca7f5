/// The `# HELP` text of every metric family /metrics shows (promtool and Prometheus's UI show
/// it; without one `promtool check metrics` warns "no help text"). The names are the ones the
/// Grafana dashboard (`ops/grafana/concierge.json`) and docs/operators use.
enum MetricsHelp {
    static let texts: [String: String] = [
        // Requests (MetricsRecorder).
        "concierge_http_requests_total": "HTTP requests answered, by route template, method and status.",
        "concierge_http_request_duration_seconds": "Time to answer an HTTP request, by route template and method.",
        // Domain events (MetricsRecorder).
        "concierge_payments_total": "Payments whose outcome the ledger learnt, by provider and outcome.",
        "concierge_webhook_deliveries_total":
            "Payment provider webhook deliveries, by provider and what became of them.",
        "concierge_holds_lapsed_total": "Seat and room holds the expiry job found lapsed and gave back.",
        "concierge_sms_sends_total": "Sign-in codes sent by SMS.",
        "concierge_signin_failures_total": "Refused sign-ins, by method and the error code answered.",
        // Counted from the database at each scrape (MetricsCensusGauges).
        "concierge_sms_sends_budget_per_hour": "The SMS sends allowed per hour (CONCIERGE_OTP_SENDS_PER_HOUR).",
        "concierge_orders": "Orders, by vertical and state.",
        "concierge_bookings": "Bookings, by vertical and state.",
        "concierge_holds_active": "Holds not yet lapsed, by vertical.",
        "concierge_outbox_backlog": "Notifications waiting to be sent, by channel.",
        "concierge_outbox_oldest_age_seconds": "Age of the oldest notification waiting to be sent (0 when none).",
        // The process's backend (TracingDatabase, InstrumentedTransport).
        "concierge_db_transaction_duration_seconds": "Time a database transaction took, by engine.",
        "concierge_db_transactions_in_flight": "Database transactions running now, by engine (the pool in use).",
        "concierge_db_transaction_errors_total": "Database transactions that failed, by engine.",
        "concierge_provider_requests_total":
            "Calls to outside providers (payments, SMS, email, maps), by provider and result.",
        "concierge_provider_request_duration_seconds": "Time a call to an outside provider took, by provider.",
    ]

    /// A library recording through swift-metrics may add a family not listed here: it still gets
    /// a help line, naming where it comes from, rather than none.
    static func text(for name: String) -> String {
        texts[name] ?? "\(name), recorded through swift-metrics (no description kept in MetricsHelp)."
    }
}
