// SPDX-License-Identifier: Apache-2.0
extension CatalogSchema {
    /// Version 9 on SQLite: nothing (PostgreSQL's version 9 changes only what SQLite does not
    /// have: `NOTIFY`, statement-level triggers with transition tables, autovacuum settings).
    /// The lists run in step, so SQLite takes the number too.
    static let migration9 = "SELECT 1;"

    /// Version 9 on PostgreSQL: the build queue off the hot path.
    ///
    /// - The per-row `NOTIFY` trigger goes. A transaction that sends `NOTIFY` takes a
    ///   cluster-wide lock at its commit, and that trigger fired in every queue, free and release
    ///   transaction. The store now sends one debounced `pg_notify` in a tiny transaction of its
    ///   own after a commit that queued claimable work (`QueueWakeNotifier`).
    /// - `bugs` and `foods` queue inserted records with one statement-level trigger over the
    ///   statement's transition table (one `INSERT … SELECT … ON CONFLICT` per statement, not
    ///   one PL/pgSQL call and upsert per row), so a multi-row `INSERT` of an import queues its
    ///   rows at once. The update and delete triggers stay as they were.
    /// - `build_queue` gets autovacuum settings of its own (see the comments in the SQL).
    static let postgresMigration9 = """
        DROP TRIGGER build_queue_notify ON build_queue;
        DROP FUNCTION build_queue_notify();
        \(postgresInsertedTrigger(table: "bugs", kind: "bug"))
        \(postgresInsertedTrigger(table: "foods", kind: "food"))
        ALTER TABLE build_queue SET (
            -- Every record passes through: inserted, updated at its claim (and each lease renewal),
            -- deleted when built, so the table's dead rows grow with throughput, not with its size.
            -- A threshold relative to its size (the default 20 %) waits for tens of thousands of
            -- dead rows after an import has made it big, and vacuums a nearly empty queue for a
            -- handful: vacuum after a fixed number of dead rows instead.
            autovacuum_vacuum_scale_factor = 0,
            autovacuum_vacuum_threshold = 1000,
            autovacuum_analyze_scale_factor = 0,
            autovacuum_analyze_threshold = 1000,
            -- The table is small and hot: vacuuming it at full speed (no cost-based sleeps) ends
            -- before the next thousand dead rows, where a throttled vacuum would fall behind.
            autovacuum_vacuum_cost_delay = 0,
            -- Claims, renewals and releases update rows in place: free room on each page lets the
            -- new version stay on its page (HOT when no indexed column changes), so updates neither
            -- spread the table nor, for HOT ones, touch its indexes.
            fillfactor = 70
        );
        """

    /// Replaces `table`'s row-level insert trigger (version 4) with a statement-level one.
    private static func postgresInsertedTrigger(table: String, kind: String) -> String {
        """
        DROP TRIGGER \(table)_queue_insert ON \(table);
        CREATE FUNCTION \(table)_queue_inserted() RETURNS trigger LANGUAGE plpgsql
            SET search_path FROM CURRENT AS $$
        BEGIN
            \(postgresEnqueue("SELECT '\(kind)', id, 0, \(postgresNow) FROM inserted_rows"))
            RETURN NULL;
        END $$;
        CREATE TRIGGER \(table)_queue_insert AFTER INSERT ON \(table)
            REFERENCING NEW TABLE AS inserted_rows
            FOR EACH STATEMENT EXECUTE FUNCTION \(table)_queue_inserted();
        """
    }
}
