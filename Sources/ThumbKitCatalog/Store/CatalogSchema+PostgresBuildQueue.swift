// SPDX-License-Identifier: Apache-2.0
extension CatalogSchema {
    /// Version 4 on PostgreSQL: the build queue of SQLite's `migration4`, the same table and the
    /// same nine triggers (as PL/pgSQL trigger functions: `IS DISTINCT FROM` for `IS NOT`,
    /// `to_char(clock_timestamp() …)` writing `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`'s text),
    /// plus what SQLite has no counterpart for: a row that becomes claimable (queued, freed by a
    /// change, released) sends a `NOTIFY` on `build_queue_channel()`, which PostgreSQL delivers
    /// when the transaction commits, so idle workers (`PostgresWakeSource`) start at once. A
    /// claim, a failed attempt waiting for its retry time and a settled row send nothing, so a
    /// notification never sets off more notifications.
    ///
    /// The channel is per catalog (`thumbkit_build_queue_` and the md5 of the catalog's schema:
    /// channels are database-wide and at most 63 bytes), so catalogs in other schemas of one
    /// database do not wake each other's workers.
    static let postgresMigration4 = """
        CREATE TABLE build_queue (
            record_kind TEXT COLLATE "C" NOT NULL CHECK (record_kind IN ('bug', 'food', 'app')),
            record_id   BIGINT NOT NULL,
            worker_id   TEXT COLLATE "C",
            lease_until BIGINT,
            attempts    BIGINT NOT NULL DEFAULT 0 CHECK (attempts >= 0),
            last_error  TEXT COLLATE "C",
            enqueued_at TEXT COLLATE "C" NOT NULL,
            PRIMARY KEY (record_kind, record_id)
        );
        CREATE INDEX build_queue_lease ON build_queue(lease_until);
        CREATE FUNCTION build_queue_channel() RETURNS text LANGUAGE sql STABLE
            SET search_path FROM CURRENT AS $$
            SELECT 'thumbkit_build_queue_' || md5(current_schema())
        $$;
        CREATE FUNCTION build_queue_notify() RETURNS trigger LANGUAGE plpgsql
            SET search_path FROM CURRENT AS $$
        BEGIN
            PERFORM pg_notify(build_queue_channel(), '');
            RETURN NULL;
        END $$;
        CREATE TRIGGER build_queue_notify AFTER INSERT OR UPDATE ON build_queue FOR EACH ROW
            WHEN (NEW.worker_id IS NULL AND NEW.lease_until IS NULL) EXECUTE FUNCTION build_queue_notify();
        \(postgresRecordTriggers(table: "bugs", kind: "bug", columns: ["title", "rating", "image_path", "image_sha256"]))
        \(postgresRecordTriggers(table: "foods", kind: "food", columns: ["name", "category_id", "image_path", "image_sha256"]))
        \(postgresSettingsTriggers)
        """

    /// `enqueue`'s upsert in PostgreSQL's words (`values` a VALUES list or a SELECT).
    static func postgresEnqueue(_ values: String) -> String {
        """
        INSERT INTO build_queue (record_kind, record_id, attempts, enqueued_at) \(values)
                ON CONFLICT (record_kind, record_id) DO UPDATE SET worker_id = NULL, lease_until = NULL,
                attempts = 0, last_error = NULL, enqueued_at = excluded.enqueued_at;
        """
    }

    /// The text `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` writes (`Timestamp`'s format; `MS`
    /// truncates, as `Timestamp` does).
    static let postgresNow = #"to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')"#

    /// A record table's three triggers: queued when inserted or when a built column changes,
    /// its row removed when it is deleted.
    private static func postgresRecordTriggers(table: String, kind: String, columns: [String]) -> String {
        let changed = columns.map { "OLD.\($0) IS DISTINCT FROM NEW.\($0)" }.joined(separator: " OR ")
        return """
            CREATE FUNCTION \(table)_queue() RETURNS trigger LANGUAGE plpgsql
                SET search_path FROM CURRENT AS $$
            BEGIN
                IF TG_OP = 'DELETE' THEN
                    DELETE FROM build_queue WHERE record_kind = '\(kind)' AND record_id = OLD.id;
                ELSE
                    \(postgresEnqueue("VALUES ('\(kind)', NEW.id, 0, \(postgresNow))"))
                END IF;
                RETURN NULL;
            END $$;
            CREATE TRIGGER \(table)_queue_insert AFTER INSERT ON \(table)
                FOR EACH ROW EXECUTE FUNCTION \(table)_queue();
            CREATE TRIGGER \(table)_queue_update AFTER UPDATE OF \(columns.joined(separator: ", ")) ON \(table)
                FOR EACH ROW WHEN (\(changed)) EXECUTE FUNCTION \(table)_queue();
            CREATE TRIGGER \(table)_queue_delete AFTER DELETE ON \(table)
                FOR EACH ROW EXECUTE FUNCTION \(table)_queue();
            """
    }

    /// The settings triggers: the rating icons queue the app and every bug, the logo the app.
    private static var postgresSettingsTriggers: String {
        let icons = "IN ('rating_icon.empty', 'rating_icon.half', 'rating_icon.full')"
        return """
            CREATE FUNCTION settings_queue() RETURNS trigger LANGUAGE plpgsql
                SET search_path FROM CURRENT AS $$
            DECLARE
                changed_key TEXT := CASE WHEN TG_OP = 'DELETE' THEN OLD.key ELSE NEW.key END;
            BEGIN
                \(postgresEnqueue("VALUES ('app', 0, 0, \(postgresNow))"))
                IF changed_key \(icons) THEN
                    \(postgresEnqueue("SELECT 'bug', id, 0, \(postgresNow) FROM bugs"))
                END IF;
                RETURN NULL;
            END $$;
            CREATE TRIGGER settings_queue_insert AFTER INSERT ON settings
                FOR EACH ROW WHEN (NEW.key \(icons) OR NEW.key = 'logo') EXECUTE FUNCTION settings_queue();
            CREATE TRIGGER settings_queue_update AFTER UPDATE ON settings
                FOR EACH ROW WHEN (OLD.value IS DISTINCT FROM NEW.value AND (NEW.key \(icons) OR NEW.key = 'logo'))
                EXECUTE FUNCTION settings_queue();
            CREATE TRIGGER settings_queue_delete AFTER DELETE ON settings
                FOR EACH ROW WHEN (OLD.key \(icons) OR OLD.key = 'logo') EXECUTE FUNCTION settings_queue();
            """
    }
}
