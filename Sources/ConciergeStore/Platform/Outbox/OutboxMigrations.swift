extension MigrationGroup {
    /// The shared outbox tables of the platform layer.
    public static let outbox = MigrationGroup(
        module: "outbox", migrations: [OutboxMigrations.richMessages, OutboxMigrations.attachmentRecipes])
}

enum OutboxMigrations {
    /// Email with HTML and attachments, and push: the queue (`notification_outbox`, from core
    /// migration 3) gains an HTML part and push data, attachments get a table of their own
    /// (base64 text, which both engines store alike), and the dev outbox keeps the HTML, the
    /// attachments' names and the push data.
    static let richMessages = Migration(
        version: 1, name: "outbox html, attachments and push",
        statements: [
            .portable("ALTER TABLE notification_outbox ADD COLUMN html_body TEXT"),
            .portable("ALTER TABLE notification_outbox ADD COLUMN push_data TEXT"),
            .portable(
                """
                CREATE TABLE outbox_attachments (
                    outbox_seq BIGINT NOT NULL REFERENCES notification_outbox(seq),
                    position BIGINT NOT NULL,
                    filename TEXT NOT NULL,
                    content_type TEXT NOT NULL,
                    content_base64 TEXT NOT NULL,
                    PRIMARY KEY (outbox_seq, position)
                )
                """),
            .portable("ALTER TABLE outbox_messages ADD COLUMN html_body TEXT"),
            .portable("ALTER TABLE outbox_messages ADD COLUMN attachment_names TEXT"),
            .portable("ALTER TABLE outbox_messages ADD COLUMN push_data TEXT"),
        ])

    /// Attachments drawn at delivery: a row holds either bytes (`content_base64`) or a recipe
    /// (`recipe`, JSON, see `OutboxAttachmentRecipe`; `content_base64` is then empty, as the
    /// column is NOT NULL and SQLite cannot relax that). Rows from before keep their bytes.
    static let attachmentRecipes = Migration(
        version: 2, name: "outbox attachment recipes",
        statements: [.portable("ALTER TABLE outbox_attachments ADD COLUMN recipe TEXT")])
}
