// SPDX-License-Identifier: Apache-2.0
/// Copies a whole catalog into an empty one, between backends or on one: every record with its
/// id and times, every output row, the settings (the catalog's id too, so the copy owns the
/// output folders the original claimed: a build of the copy with the same `--out` makes
/// nothing), the benchmark runs older releases kept in the catalog (so a copy loses none of
/// them; `thumbkit bench` no longer writes there) and the watch folder's memory.
package enum CatalogCopy {
    /// The copied tables, parents first, with their columns (`CatalogCopyTests` checks these
    /// against both schemas, so a new column cannot be forgotten here).
    static let tables: [(name: String, columns: [String], hasID: Bool)] = [
        ("categories", ["id", "name", "position"], true),
        ("bugs", ["id", "title", "rating", "image_path", "image_sha256", "created_at", "updated_at"], true),
        ("foods", ["id", "category_id", "name", "image_path", "image_sha256", "created_at", "updated_at"], true),
        (
            "outputs",
            [
                "id", "record_kind", "record_id", "recipe", "kind", "scale", "path", "width", "height", "format",
                "bytes", "source_sha256", "created_at",
            ], true
        ),
        ("settings", ["key", "value"], false),
        ("bench_runs", ["id", "date", "git_commit", "machine", "note"], true),
        (
            "bench_results",
            [
                "id", "run_id", "job", "tool", "images_per_second", "megapixels_per_second", "wall_median_seconds",
                "peak_rss_bytes", "ssim", "corpus_digest", "images", "timed_runs",
            ], true
        ),
        (
            "ingested_files", ["id", "path", "sha256", "record_kind", "record_id", "status", "reason", "processed_at"],
            true
        ),
    ]

    /// Tables deliberately not copied. `build_queue` is the work in hand, not catalog content:
    /// the copy's inserts queue every record through the destination's own triggers, and the
    /// first build's (or worker's) planning pass drops the rows of records already current.
    /// `build_claim_sequence` numbers that queue's claims, so the copy's starts afresh with it.
    /// `build_planning` numbers the planning passes of the source's builds.
    static let notCopied: Set<String> = ["build_queue", "build_claim_sequence", "build_planning"]

    /// Copies every row of `source` (read in one snapshot) into `destination` (in one
    /// transaction: all or nothing), each table with `appendRows` (PostgreSQL: one `COPY` per
    /// table; SQLite: multi-row `INSERT`s). Returns the rows copied per table.
    ///
    /// - Throws: `CatalogError.invalidRecord` when `destination` holds any row already (a copy
    ///   never merges), or a store error (PostgreSQL refuses text holding a NUL character).
    /// `rowsPerBatch` is `appendRows`'s: nil in use, small in tests that cross many batches.
    @discardableResult
    package static func copy(
        from source: CatalogStore, to destination: CatalogStore, rowsPerBatch: Int? = nil
    ) throws -> [String: Int] {
        let rows = try source.read { tx in
            try tables.map { table in
                try tx.connection.query(
                    "SELECT \(table.columns.joined(separator: ", ")) FROM \(table.name) ORDER BY 1"
                ) { row in (0..<Int32(table.columns.count)).map { row.value($0) } }
            }
        }
        return try destination.write { tx in
            let db = tx.connection
            for table in tables {
                if try db.queryFirst("SELECT 1 FROM \(table.name) LIMIT 1", { _ in true }) != nil {
                    throw CatalogError.invalidRecord(
                        path: db.location, reason: "the destination is not empty (its \(table.name) has rows)")
                }
            }
            var counts: [String: Int] = [:]
            for (table, values) in zip(tables, rows) {
                try db.appendRows(to: table.name, columns: table.columns, values, rowsPerBatch: rowsPerBatch)
                if table.hasID, !values.isEmpty, let follow = db.dialect.afterExplicitID(table: table.name) {
                    try db.run(follow)
                }
                counts[table.name] = values.count
            }
            return counts
        }
    }
}
