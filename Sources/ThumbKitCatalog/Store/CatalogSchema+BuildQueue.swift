// SPDX-License-Identifier: Apache-2.0
extension CatalogSchema {
    /// Version 4: the build queue that any number of workers share (docs/scale-out.md).
    ///
    /// One row per record that needs building: `(record_kind, record_id)` is the key, so a
    /// record is queued at most once. A row is free when `lease_until` is NULL or has passed;
    /// a worker claims it by writing its `worker_id` and a `lease_until` in the future (epoch
    /// milliseconds, an INTEGER: it sorts and compares alike in SQLite and PostgreSQL, with no
    /// time zone or text format to agree on). `attempts` counts claims since the record last
    /// changed; `last_error` is the reason the last attempt failed. `enqueued_at` is `Timestamp`
    /// text (only for ordering and for people).
    ///
    /// Records are queued by triggers, in the very transaction that changes them, whatever
    /// command made the change (`catalog import`, `rate`, `set-image`, `rename`, the watch
    /// folder's ingest and undo): a change can never be committed without its queue entry. A
    /// change to a record that a worker holds frees the row (worker_id NULL), which fences that
    /// worker off: its commit finds the claim gone and writes nothing, and the record is built
    /// again from its new state. The rating icons change every bug's strip rows, the logo the
    /// app's icons, so those settings queue the app (and the bugs).
    ///
    /// PostgreSQL has no trigger bodies of this form: `postgresMigration4` writes the same
    /// triggers, by name, over PL/pgSQL functions (`IS DISTINCT FROM` for `IS NOT`,
    /// `to_char(clock_timestamp()…)` for `strftime`), and adds a `NOTIFY` for idle workers.
    static let migration4 = """
        CREATE TABLE build_queue (
            record_kind TEXT    NOT NULL CHECK (record_kind IN ('bug', 'food', 'app')),
            record_id   INTEGER NOT NULL,
            worker_id   TEXT,
            lease_until INTEGER,
            attempts    INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
            last_error  TEXT,
            enqueued_at TEXT    NOT NULL,
            PRIMARY KEY (record_kind, record_id)
        );
        CREATE INDEX build_queue_lease ON build_queue(lease_until);
        CREATE TRIGGER bugs_queue_insert AFTER INSERT ON bugs BEGIN
            \(enqueue("'bug'", "NEW.id"))
        END;
        CREATE TRIGGER bugs_queue_update AFTER UPDATE OF title, rating, image_path, image_sha256 ON bugs
        WHEN OLD.title IS NOT NEW.title OR OLD.rating IS NOT NEW.rating OR OLD.image_path IS NOT NEW.image_path
            OR OLD.image_sha256 IS NOT NEW.image_sha256 BEGIN
            \(enqueue("'bug'", "NEW.id"))
        END;
        CREATE TRIGGER bugs_queue_delete AFTER DELETE ON bugs BEGIN
            DELETE FROM build_queue WHERE record_kind = 'bug' AND record_id = OLD.id;
        END;
        CREATE TRIGGER foods_queue_insert AFTER INSERT ON foods BEGIN
            \(enqueue("'food'", "NEW.id"))
        END;
        CREATE TRIGGER foods_queue_update AFTER UPDATE OF name, category_id, image_path, image_sha256 ON foods
        WHEN OLD.name IS NOT NEW.name OR OLD.category_id IS NOT NEW.category_id OR OLD.image_path IS NOT NEW.image_path
            OR OLD.image_sha256 IS NOT NEW.image_sha256 BEGIN
            \(enqueue("'food'", "NEW.id"))
        END;
        CREATE TRIGGER foods_queue_delete AFTER DELETE ON foods BEGIN
            DELETE FROM build_queue WHERE record_kind = 'food' AND record_id = OLD.id;
        END;
        \(settingsTriggers)
        """

    /// The upsert a trigger runs: queue the record, or free its row if a worker holds it (its
    /// build is of the old state) and start its attempts again.
    private static func enqueue(_ kind: String, _ id: String, select: String? = nil) -> String {
        let now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
        // An INSERT … SELECT needs its WHERE for SQLite to tell the upsert from a join.
        let values = select.map { "SELECT \(kind), \(id), 0, \(now) \($0)" } ?? "VALUES (\(kind), \(id), 0, \(now))"
        return """
            INSERT INTO build_queue (record_kind, record_id, attempts, enqueued_at) \(values)
                ON CONFLICT (record_kind, record_id) DO UPDATE SET worker_id = NULL, lease_until = NULL,
                attempts = 0, last_error = NULL, enqueued_at = excluded.enqueued_at;
            """
    }

    /// The settings that change built files: the rating icons (the strips and every bug's rows
    /// pointing at them) and the logo (the app icons).
    private static var settingsTriggers: String {
        let icons = "key IN ('rating_icon.empty', 'rating_icon.half', 'rating_icon.full')"
        var text = ""
        let events = [
            ("INSERT", "NEW", ""), ("UPDATE", "NEW", "OLD.value IS NOT NEW.value AND "), ("DELETE", "OLD", ""),
        ]
        for (event, row, changed) in events {
            text += """
                CREATE TRIGGER settings_queue_\(event.lowercased()) AFTER \(event) ON settings
                WHEN \(changed)(\(row).\(icons) OR \(row).key = 'logo') BEGIN
                    \(enqueue("'app'", "0"))
                    \(enqueue("'bug'", "id", select: "FROM bugs WHERE \(row).\(icons)"))
                END;

                """
        }
        return text
    }
}
