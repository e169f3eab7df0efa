// SPDX-License-Identifier: Apache-2.0
import ThumbKitCatalog

/// The benchmark history's schema: the runs and their figures, in an SQLite database of its own
/// (`BenchHistoryStore`), opened and migrated by the catalog's store machinery
/// (`DatabaseSchema`). Its tables have the names and columns of the catalog's old `bench_runs`
/// and `bench_results` (catalog migrations 2 and 3), so the history's SQL
/// (`BenchHistoryTables`) also reads a catalog's old runs when they are imported.
///
/// A history file is told from a catalog (which holds tables of these names too) and from any
/// other SQLite file by its application id, "TKBH". Never edit a shipped migration: append one.
enum BenchHistorySchema {
    /// `PRAGMA application_id` of a history file: "TKBH" in ASCII.
    static let applicationID: Int32 = 0x544B_4248

    /// Version 1: runs and results, with what each result measured (corpus digest, images per
    /// run, timed runs; empty and 0 for a result imported from a catalog that predates them).
    static let migration1 = """
        CREATE TABLE bench_runs (
            id         INTEGER PRIMARY KEY,
            date       TEXT NOT NULL,
            git_commit TEXT NOT NULL,
            machine    TEXT NOT NULL,
            note       TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX bench_runs_date ON bench_runs(date);
        CREATE TABLE bench_results (
            id                    INTEGER PRIMARY KEY,
            run_id                INTEGER NOT NULL REFERENCES bench_runs(id) ON DELETE CASCADE,
            job                   TEXT    NOT NULL,
            tool                  TEXT    NOT NULL,
            images_per_second     REAL    NOT NULL,
            megapixels_per_second REAL    NOT NULL,
            wall_median_seconds   REAL    NOT NULL,
            peak_rss_bytes        INTEGER NOT NULL,
            ssim                  REAL,
            corpus_digest         TEXT    NOT NULL DEFAULT '',
            images                INTEGER NOT NULL DEFAULT 0,
            timed_runs            INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX bench_results_run ON bench_results(run_id);
        CREATE INDEX bench_results_job_tool ON bench_results(job, tool);
        """

    /// The history as a kind of database: SQLite only (see `BenchHistoryStore`).
    static let definition = DatabaseSchema(
        noun: "benchmark history", sqliteMigrations: [migration1], tables: ["bench_runs", "bench_results"],
        applicationID: applicationID, readOnlyHint: "bench history and bench show only read it",
        foreignHint:
            "give --history a file of its own (a catalog's old runs are copied with 'thumbkit bench history "
            + "--import-catalog CATALOG')")
}
