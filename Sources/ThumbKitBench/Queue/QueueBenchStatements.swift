// SPDX-License-Identifier: Apache-2.0
import ThumbKitCatalog

/// Counts the statements the catalog's database has run, from `pg_stat_statements`: the bench
/// reads the count before and after the measured window, and divides the difference by the
/// records built. Top-level statements only (the extension's default `track = top`), so
/// `BEGIN`, `COMMIT` and the advisory lock count, the queue triggers' own statements do not.
///
/// The count covers the whole database: on a server others use at the same time their
/// statements are counted too (run the bench on a cluster of its own for exact figures). SQLite
/// has no such view: `unavailable` says so.
struct QueueBenchStatements {
    /// The schema-qualified view, or nil when the count cannot be had.
    private let view: String?
    /// Why not, when `view` is nil.
    let unavailable: String?
    /// A connection of its own to the catalog, so that a failed probe never leaves the
    /// bench's own connection in an aborted transaction.
    private let store: CatalogStore?

    /// Looks for the extension in the database of `scratch`'s catalog; when it is not
    /// installed, installs it into the scratch schema (dropped with it, so the database is left
    /// as it was). Unusable (not in `shared_preload_libraries`, no right to create it, SQLite):
    /// `unavailable` says why.
    init(_ scratch: QueueBenchScratch) {
        guard let schema = scratch.schema else {
            (view, unavailable, store) = (nil, "SQLite has no statement statistics", nil)
            return
        }
        do {
            let store = try CatalogStore(location: try CatalogLocation(parsing: scratch.catalog))
            let view = try Self.findView(store, installingInto: schema)
            _ = try Self.count(view, store)
            (self.view, unavailable, self.store) = (view, nil, store)
        } catch {
            (view, unavailable, store) = (nil, "pg_stat_statements is not usable here (\(error))", nil)
        }
    }

    /// The view's schema-qualified name, the extension installed into `schema` if need be.
    private static func findView(_ store: CatalogStore, installingInto schema: String) throws -> String {
        let found = try store.read { tx in
            try tx.db.queryFirst(
                """
                SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
                WHERE e.extname = 'pg_stat_statements'
                """
            ) { $0.string(0) }
        }
        if let found { return PostgresAdmin.quote(found) + ".pg_stat_statements" }
        try store.write { tx in try tx.db.execute("CREATE EXTENSION pg_stat_statements SCHEMA \(schema)") }
        return PostgresAdmin.quote(schema) + ".pg_stat_statements"
    }

    /// The statements run in the catalog's database so far, or nil when unavailable.
    func count() -> Int? {
        guard let view, let store else { return nil }
        return try? Self.count(view, store)
    }

    private static func count(_ view: String, _ store: CatalogStore) throws -> Int {
        try store.read { tx in
            try tx.db.queryFirst(
                """
                SELECT COALESCE(SUM(calls), 0)::bigint FROM \(view)
                WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                """
            ) { $0.int(0) } ?? 0
        }
    }
}
