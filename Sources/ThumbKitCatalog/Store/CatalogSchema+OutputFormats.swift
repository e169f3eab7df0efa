// SPDX-License-Identifier: Apache-2.0
extension CatalogSchema {
    /// Version 5: outputs may be WebP or AVIF, not only PNG and JPEG (recipes gained
    /// `"format": "webp"` and `"avif"`, but version 1's CHECK refused their rows, so such a
    /// build failed at its commit).
    ///
    /// SQLite cannot alter a CHECK, so the table is rebuilt as SQLite's documented procedure
    /// says: a new table, the rows copied, the old one dropped and the new one renamed, inside
    /// the migration's transaction. Row ids are copied, so nothing that points at an output
    /// changes. The two triggers that delete a record's outputs name the table, so they are
    /// dropped first and made again after the rename.
    static let migration5 = """
        DROP TRIGGER bugs_delete_outputs;
        DROP TRIGGER foods_delete_outputs;
        CREATE TABLE outputs_v5 (
            id            INTEGER PRIMARY KEY,
            record_kind   TEXT    NOT NULL CHECK (record_kind IN ('bug', 'food', 'app')),
            record_id     INTEGER NOT NULL,
            recipe        TEXT    NOT NULL,
            kind          TEXT    NOT NULL CHECK (kind IN ('list', 'detail', 'rating', 'icon')),
            scale         INTEGER NOT NULL CHECK (scale >= 1),
            path          TEXT    NOT NULL,
            width         INTEGER NOT NULL CHECK (width > 0),
            height        INTEGER NOT NULL CHECK (height > 0),
            format        TEXT    NOT NULL CHECK (format IN ('png', 'jpeg', 'webp', 'avif')),
            bytes         INTEGER NOT NULL CHECK (bytes >= 0),
            source_sha256 TEXT    NOT NULL,
            created_at    TEXT    NOT NULL,
            UNIQUE (record_kind, record_id, recipe, scale)
        );
        INSERT INTO outputs_v5 (id, record_kind, record_id, recipe, kind, scale, path, width, height, format,
            bytes, source_sha256, created_at)
        SELECT id, record_kind, record_id, recipe, kind, scale, path, width, height, format,
            bytes, source_sha256, created_at FROM outputs;
        DROP TABLE outputs;
        ALTER TABLE outputs_v5 RENAME TO outputs;
        CREATE INDEX outputs_path ON outputs(path);
        CREATE TRIGGER bugs_delete_outputs AFTER DELETE ON bugs BEGIN
            DELETE FROM outputs WHERE record_kind = 'bug' AND record_id = OLD.id;
        END;
        CREATE TRIGGER foods_delete_outputs AFTER DELETE ON foods BEGIN
            DELETE FROM outputs WHERE record_kind = 'food' AND record_id = OLD.id;
        END;
        """

    /// Version 5 on PostgreSQL, which can replace a CHECK in place (its name is PostgreSQL's
    /// default for a column constraint, `<table>_<column>_check`).
    static let postgresMigration5 = """
        ALTER TABLE outputs DROP CONSTRAINT outputs_format_check;
        ALTER TABLE outputs ADD CONSTRAINT outputs_format_check
            CHECK (format IN ('png', 'jpeg', 'webp', 'avif'));
        """
}
