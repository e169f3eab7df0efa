// SPDX-License-Identifier: Apache-2.0
/// The catalog's schema as a list of forward migrations (`definition` runs them). Migration *n*
/// (1-based) turns a database at `PRAGMA user_version` n−1 into one at n. They run in order, all
/// pending ones in a single transaction, so a failure leaves the database at its old version.
///
/// Never edit a shipped migration: append a new one. Migrations 2 and 3 made the tables
/// `bench_runs` and `bench_results`, where `thumbkit bench` used to keep its history: the
/// history now has a store of its own (ThumbKitBench), and those tables stay, never written
/// again, so that no catalog loses the runs it holds (`thumbkit bench history
/// --import-catalog` copies them out; nothing drops them).
enum CatalogSchema {
    /// The SQL of each migration, in order.
    static let migrations: [String] = [
        migration1, migration2, migration3, migration4, migration5, migration6, migration7, migration8, migration9,
        migration10, migration11, migration12,
    ]

    /// The version a fresh or migrated database ends at.
    static var latestVersion: Int { migrations.count }

    /// Version 1: records, outputs and settings.
    static let migration1 = """
        CREATE TABLE categories (
            id       INTEGER PRIMARY KEY,
            name     TEXT    NOT NULL UNIQUE CHECK (length(name) > 0),
            position INTEGER NOT NULL
        );
        CREATE TABLE bugs (
            id           INTEGER PRIMARY KEY,
            title        TEXT    NOT NULL UNIQUE CHECK (length(title) > 0),
            rating       REAL    NOT NULL DEFAULT 0
                         CHECK (rating >= 0 AND rating <= 5 AND rating * 2 = CAST(rating * 2 AS INTEGER)),
            image_path   TEXT,
            image_sha256 TEXT    CHECK (image_sha256 IS NULL OR length(image_sha256) = 64),
            created_at   TEXT    NOT NULL,
            updated_at   TEXT    NOT NULL,
            CHECK ((image_path IS NULL) = (image_sha256 IS NULL))
        );
        CREATE TABLE foods (
            id           INTEGER PRIMARY KEY,
            category_id  INTEGER NOT NULL REFERENCES categories(id) ON DELETE RESTRICT,
            name         TEXT    NOT NULL CHECK (length(name) > 0),
            image_path   TEXT,
            image_sha256 TEXT    CHECK (image_sha256 IS NULL OR length(image_sha256) = 64),
            created_at   TEXT    NOT NULL,
            updated_at   TEXT    NOT NULL,
            UNIQUE (category_id, name),
            CHECK ((image_path IS NULL) = (image_sha256 IS NULL))
        );
        CREATE INDEX foods_category ON foods(category_id);
        CREATE TABLE outputs (
            id            INTEGER PRIMARY KEY,
            record_kind   TEXT    NOT NULL CHECK (record_kind IN ('bug', 'food', 'app')),
            record_id     INTEGER NOT NULL,
            recipe        TEXT    NOT NULL,
            kind          TEXT    NOT NULL CHECK (kind IN ('list', 'detail', 'rating', 'icon')),
            scale         INTEGER NOT NULL CHECK (scale >= 1),
            path          TEXT    NOT NULL,
            width         INTEGER NOT NULL CHECK (width > 0),
            height        INTEGER NOT NULL CHECK (height > 0),
            format        TEXT    NOT NULL CHECK (format IN ('png', 'jpeg')),
            bytes         INTEGER NOT NULL CHECK (bytes >= 0),
            source_sha256 TEXT    NOT NULL,
            created_at    TEXT    NOT NULL,
            UNIQUE (record_kind, record_id, recipe, scale)
        );
        CREATE INDEX outputs_path ON outputs(path);
        -- Outputs point at bugs or foods by (kind, id), which no foreign key can express:
        -- these triggers delete a record's outputs with it.
        CREATE TRIGGER bugs_delete_outputs AFTER DELETE ON bugs BEGIN
            DELETE FROM outputs WHERE record_kind = 'bug' AND record_id = OLD.id;
        END;
        CREATE TRIGGER foods_delete_outputs AFTER DELETE ON foods BEGIN
            DELETE FROM outputs WHERE record_kind = 'food' AND record_id = OLD.id;
        END;
        CREATE TABLE settings (
            key   TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        """

    /// Version 2: benchmark history (no longer written; see the type's comment) and the watch
    /// folder's memory of files it has seen.
    static let migration2 = """
        CREATE TABLE bench_runs (
            id         INTEGER PRIMARY KEY,
            date       TEXT NOT NULL,
            git_commit TEXT NOT NULL,
            machine    TEXT NOT NULL,
            note       TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE bench_results (
            id                    INTEGER PRIMARY KEY,
            run_id                INTEGER NOT NULL REFERENCES bench_runs(id) ON DELETE CASCADE,
            job                   TEXT    NOT NULL,
            tool                  TEXT    NOT NULL,
            images_per_second     REAL    NOT NULL,
            megapixels_per_second REAL    NOT NULL,
            wall_median_seconds   REAL    NOT NULL,
            peak_rss_bytes        INTEGER NOT NULL,
            ssim                  REAL
        );
        CREATE INDEX bench_results_run ON bench_results(run_id);
        CREATE INDEX bench_results_job_tool ON bench_results(job, tool);
        CREATE TABLE ingested_files (
            id           INTEGER PRIMARY KEY,
            path         TEXT NOT NULL,
            sha256       TEXT NOT NULL,
            record_kind  TEXT CHECK (record_kind IS NULL OR record_kind IN ('bug', 'food', 'app')),
            record_id    INTEGER,
            status       TEXT NOT NULL CHECK (status IN ('pending', 'imported', 'skipped', 'failed')),
            reason       TEXT NOT NULL DEFAULT '',
            processed_at TEXT NOT NULL,
            UNIQUE (path, sha256)
        );
        """

    /// The catalog as a kind of database: its migrations on both backends, its tables, and
    /// the words its messages use.
    static let definition = DatabaseSchema(
        noun: "catalog", sqliteMigrations: migrations, postgresMigrations: postgresMigrations, tables: catalogTables,
        readOnlyHint: "list, show, export and site only read it")

    /// Brings `connection` up to `target` (default: the latest version); see
    /// `DatabaseSchema.migrate(_:to:)`.
    static func migrate(_ connection: any CatalogConnection, to target: Int = latestVersion) throws {
        try definition.migrate(connection, to: target)
    }

    /// Throws `CatalogError.schema` for a version this build cannot open (see
    /// `DatabaseSchema.check(_:path:)`).
    static func check(_ version: Int, path: String) throws(CatalogError) {
        try definition.check(version, path: path)
    }

    /// The tables every catalog has.
    static let catalogTables: Set<String> = ["bugs", "foods", "outputs", "settings"]

    /// The schema version (`PRAGMA user_version`, or PostgreSQL's `schema_version` table).
    static func userVersion(_ connection: any CatalogConnection) throws(CatalogError) -> Int {
        try connection.dialect.schemaVersion(connection)
    }
}
