import ConciergeStore
import Foundation

/// One person with something in every table that can hold personal data: an account with every
/// sign-in method, a rides profile and booking, a stays guest and reservation, an events booking
/// with a ticket, commute trips with everything around them, orders, and messages in both
/// outboxes. Every personal value carries the person's `marker`, so a scan of the whole schema
/// finds what is left of them.
struct PersonalDataFixture {
    let name: String
    let phone: String

    /// Not named after the person: an erased account's id stays where rows are kept.
    var accountID: String { "acc_\(phone.suffix(3))" }
    var email: String { "\(name)@example.com" }
    var deviceToken: String { "\(name)-device-token" }
    var tripID: String { "trp_\(name)" }
    /// What must not be found anywhere after erasure (account ids aside).
    var markers: [String] { [name, String(phone.suffix(7))] }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static var ms: Int64 { Int64(now.timeIntervalSince1970 * 1000) }

    /// The catalogue rows the people's events bookings need.
    static func seedCatalogue(in db: any SQLDatabase) async throws {
        try await db.query(
            "INSERT INTO events_venues (id, name, location, time_zone, width, height) VALUES ('ven_1', 'Hall', 'Zurich', 'Europe/Zurich', 10, 10)"
        )
        try await db.query(
            """
            INSERT INTO events_shows (id, venue_id, title, description, image_url, starts_at, currency, cancelled)
            VALUES ('shw_1', 'ven_1', 'Show', 'A show', '', \(ms + 86_400_000), 'CHF', 0)
            """)
    }

    func seed(in db: any SQLDatabase) async throws {
        let ms = Self.ms
        let id = accountID
        let statements: [String] = [
            "INSERT INTO accounts (id, display_name, created_at) VALUES ('\(id)', '\(name) Example', \(ms))",
            """
            INSERT INTO account_credentials (kind, identifier, account_id, secret_hash, verified_at, created_at)
            VALUES ('email', '\(email)', '\(id)', 'hash', \(ms), \(ms)),
                   ('phone', '\(phone)', '\(id)', NULL, \(ms), \(ms)),
                   ('username', '\(name)1', '\(id)', 'hash', \(ms), \(ms))
            """,
            """
            INSERT INTO account_tokens (token_hash, account_id, purpose, identifier, created_at, expires_at)
            VALUES ('tok_\(name)', '\(id)', 'verify_email', '\(email)', \(ms), \(ms + 3_600_000))
            """,
            """
            INSERT INTO sessions (id, account_id, kind, vertical, token_hash, created_at, expires_at)
            VALUES ('ses_\(name)', '\(id)', 'bearer', 'rides', 'hash_\(name)', \(ms), \(ms + 3_600_000))
            """,
            "INSERT INTO refresh_tokens (token_hash, session_id, issued_at, expires_at) VALUES ('rt_\(name)', 'ses_\(name)', \(ms), \(ms + 1))",
            """
            INSERT INTO code_challenges (phone, id, code_hash, sent_at, expires_at, wrong_guesses)
            VALUES ('\(phone)', 'chl_1', 'h', \(ms), \(ms + 600_000), 0)
            """,
            "INSERT INTO rate_events (key, occurred_at, attempt_id) VALUES ('sms-send:phone:\(phone)', \(ms), 'a1')",
            // Rides: the profile and a booking with a flight number, an order beside it.
            "INSERT INTO customers (id, phone, name, email, created_at) VALUES ('\(id)', '\(phone)', '\(name) Example', '\(email)', \(ms))",
            """
            INSERT INTO bookings (id, reference, public_secret, customer_id, pickup_place_id, pickup_description,
                pickup_name, pickup_kind, pickup_time_zone, destination_place_id, destination_description,
                destination_name, destination_kind, destination_time_zone, pickup_at, passengers, vehicle_class,
                flight_number, price_cents, currency, distance_meters, duration_seconds, state, quote_expires_at,
                created_at)
            VALUES ('bkg_\(id)', 'REF-\(id)', 's', '\(id)', 'gz_1', 'Airport', 'ZRH', 'airport', 'Europe/Zurich',
                'gz_2', 'Station', 'HB', 'station', 'Europe/Zurich', \(ms), 1, 'business', 'LX \(name)', 9000,
                'CHF', 1000, 600, 'confirmed', \(ms), \(ms))
            """,
            "INSERT INTO booking_events (booking_id, at, type, actor, detail) VALUES ('bkg_\(id)', \(ms), 'created', 'customer:\(id)', 'business')",
            """
            INSERT INTO orders (id, vertical, account_id, reference, public_secret, amount_cents, currency, state,
                created_at, updated_at, status)
            VALUES ('ord_\(id)', 'events', '\(id)', 'EV-\(id)', 's', 5000, 'CHF', 'confirmed', \(ms), \(ms), 'confirmed')
            """,
            "INSERT INTO order_events (order_id, at, type, actor, detail) VALUES ('ord_\(id)', \(ms), 'held', 'account:\(id)', '2 seats')",
            """
            INSERT INTO idempotency_keys_v2 (scope, account_id, key, request_hash, response, created_at)
            VALUES ('rides', '\(id)', 'k1', 'h', '{"name": "\(name)"}', \(ms))
            """,
            "INSERT INTO holds (id, owner_id, state, created_at, expires_at) VALUES ('hld_\(id)', '\(id)', 'held', \(ms), \(ms + 1))",
            // Stays: the guest and a reservation with a telling purpose.
            """
            INSERT INTO stays_guests (account_id, username, first_name, last_name, email, phone, created_at)
            VALUES ('\(id)', '\(name)1', '\(name)', 'Example', '\(email)', '\(phone)', \(ms))
            """,
            """
            INSERT INTO stays_reservations (guest_id, account_id, room_type_id, check_in, check_out, people, purpose,
                accommodation_cents, city_tax_cents, vat_included_cents, first_night_cents, currency, status,
                confirmation_code, created_at)
            VALUES ((SELECT guest_id FROM stays_guests WHERE account_id = '\(id)'), '\(id)', 1, '2027-01-01',
                '2027-01-02', 1, 'medical treatment for \(name)', 10000, 300, 700, 10000, 'CHF', 'confirmed',
                'CONF-\(id)', \(ms))
            """,
            "INSERT INTO stays_idempotency_keys (account_id, idempotency_key, reservation_id, created_at) VALUES ('\(id)', 'k1', 1, \(ms))",
            // Events: a booking with its contact email and a ticket.
            """
            INSERT INTO events_bookings (order_id, session_id, show_id, account_id, contact_email, hold_id, state,
                payment_provider, payment_id, payment_record_id, amount_cents, currency, expires_at, created_at,
                updated_at)
            VALUES ('ord_\(id)', 'cs_\(id)', 'shw_1', '\(id)', '\(email)', 'hld_\(id)', 'confirmed', 'sandbox', 'p1',
                'pay_1', 5000, 'CHF', \(ms), \(ms), \(ms))
            """,
            "INSERT INTO events_tickets (order_id, seat_id, price_cents, secret) VALUES ('ord_\(id)', 'A-1', 5000, 'sec_\(id)')",
            // Commute: a trip and everything around it.
            """
            INSERT INTO commute_trips (id, account_id, body, created_at, updated_at, next_check_at)
            VALUES ('\(tripID)', '\(id)', '{"origin": {"label": "\(name) home"}}', \(ms), \(ms), \(ms))
            """,
            """
            INSERT INTO commute_observations (id, trip_id, departed_at, arrived_at, expected_seconds, created_at)
            VALUES ('obs_\(name)', '\(tripID)', \(ms), \(ms + 1_800_000), 1700, \(ms))
            """,
            "INSERT INTO commute_occurrences (trip_id, day, arrive_by, leave_at) VALUES ('\(tripID)', '2027-01-01', \(ms), \(ms))",
            """
            INSERT INTO commute_devices (token, account_id, platform, environment, created_at)
            VALUES ('\(deviceToken)', '\(id)', 'ios', 'production', \(ms))
            """,
            """
            INSERT INTO commute_live_activities (trip_id, account_id, token, environment, created_at)
            VALUES ('\(tripID)', '\(id)', '\(name)-activity-token', 'production', \(ms))
            """,
            """
            INSERT INTO commute_notifications (id, account_id, trip_id, dedupe_key, kind, title, body, leave_at, channels, sent_at)
            VALUES ('ntf_\(name)', '\(id)', '\(tripID)', 'd_\(name)', 'leave_soon', 'Leave soon', 'to reach \(name) office', \(ms), 'push', \(ms))
            """,
            // Messages to every address, waiting and delivered.
            """
            INSERT INTO notification_outbox (dedupe_key, channel, recipient, subject, body, status, attempts, next_attempt_at, created_at, push_data)
            VALUES ('o1_\(name)', 'email', '\(email)', 'Hi \(name)', 'Dear \(name)', 'pending', 0, \(ms), \(ms), NULL),
                   ('o2_\(name)', 'push', '\(deviceToken)', 'Leave', 'Leave now', 'sent', 1, \(ms), \(ms), '{}')
            """,
            """
            INSERT INTO outbox_attachments (outbox_seq, position, filename, content_type, content_base64)
            VALUES ((SELECT seq FROM notification_outbox WHERE dedupe_key = 'o1_\(name)'), 0, 'ticket.png', 'image/png', '\(name)')
            """,
            """
            INSERT INTO outbox_messages (channel, recipient, subject, body, created_at)
            VALUES ('sms', '\(phone)', NULL, 'Your code', \(ms)), ('email', '\(email)', 'Hi', 'Dear \(name)', \(ms))
            """,
        ]
        for statement in statements {
            try await db.query(statement)
        }
    }
}
