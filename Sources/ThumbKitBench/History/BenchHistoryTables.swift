// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitCatalog

/// The SQL of the benchmark history, on one connection inside one transaction: saving a run,
/// listing runs, reading results. It runs on a `BenchHistoryStore`'s own database, and (reading
/// only, for `BenchHistoryStore.importRuns(from:)`) on a catalog's old `bench_runs` and
/// `bench_results`, which have the same names and columns, on SQLite or PostgreSQL: the SQL is
/// written once, in the dialect both accept.
///
/// Not Sendable, and only valid inside the store block that made it.
struct BenchHistoryTables {
    let db: any CatalogConnection
    /// Whether `bench_results` records what each result measured (corpus digest, images, timed
    /// runs). False only for a catalog at schema version 2, from before those columns: its
    /// results read as measured on an unknown corpus.
    var recordsMeasurement = true

    /// Stores a run and its results; returns the run (its date as stored, to the millisecond).
    @discardableResult
    func addRun(date: Date, gitCommit: String, machine: String, note: String, results: [BenchResult])
        throws(CatalogError) -> BenchRun
    {
        let stamp = Timestamp.string(from: date)
        let runID = try db.insert(
            into: "bench_runs", id: nil,
            [
                ("date", .text(stamp)), ("git_commit", .text(gitCommit)), ("machine", .text(machine)),
                ("note", .text(note)),
            ])
        for result in results {
            try db.run(
                """
                INSERT INTO bench_results (run_id, job, tool, images_per_second, megapixels_per_second,
                                           wall_median_seconds, peak_rss_bytes, ssim, corpus_digest, images,
                                           timed_runs)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .integer(runID), .text(result.job), .text(result.tool), .real(result.imagesPerSecond),
                    .real(result.megapixelsPerSecond), .real(result.wallMedianSeconds), .integer(result.peakRSSBytes),
                    result.ssim.map { .real($0) } ?? .null, .text(result.corpusDigest), .integer(result.images),
                    .integer(result.timedRuns),
                ])
        }
        let stored = Timestamp.date(from: stamp) ?? date
        return BenchRun(id: runID, date: stored, gitCommit: gitCommit, machine: machine, note: note)
    }

    /// Runs, newest first; at most `limit` of them when given.
    func runs(limit: Int? = nil) throws(CatalogError) -> [BenchRun] {
        try db.query(
            "SELECT id, date, git_commit, machine, note FROM bench_runs ORDER BY date DESC, id DESC LIMIT ?",
            // No limit is the largest one: PostgreSQL refuses SQLite's -1.
            [.integer(limit.map { $0 < 0 ? Int.max : $0 } ?? Int.max)]
        ) { row throws(CatalogError) in
            BenchRun(
                id: row.int(0),
                date: try Timestamp.date(stored: row.string(1), of: "bench run \(row.int(0))", in: db.location),
                gitCommit: row.string(2), machine: row.string(3), note: row.string(4))
        }
    }

    /// Results of one run, or (with `runID` nil) of every run, filtered by job and tool when
    /// given; oldest run first, so a job/tool filter gives its history.
    func results(runID: Int? = nil, job: String? = nil, tool: String? = nil) throws(CatalogError) -> [BenchResult] {
        let measurement = recordsMeasurement ? "r.corpus_digest, r.images, r.timed_runs" : "'', 0, 0"
        return try db.query(
            """
            SELECT r.run_id, r.job, r.tool, r.images_per_second, r.megapixels_per_second, r.wall_median_seconds,
                   r.peak_rss_bytes, r.ssim, \(measurement)
            FROM bench_results r JOIN bench_runs b ON b.id = r.run_id
            WHERE (CAST(?1 AS BIGINT) IS NULL OR r.run_id = ?1) AND (CAST(?2 AS TEXT) IS NULL OR r.job = ?2)
              AND (CAST(?3 AS TEXT) IS NULL OR r.tool = ?3)
            ORDER BY b.date, b.id, r.id
            """,
            // The CASTs give PostgreSQL a type for a NULL that is only tested.
            [runID.map { .integer($0) } ?? .null, .optional(job), .optional(tool)]
        ) { row in
            BenchResult(
                runID: row.int(0), job: row.string(1), tool: row.string(2), imagesPerSecond: row.double(3),
                megapixelsPerSecond: row.double(4), wallMedianSeconds: row.double(5), peakRSSBytes: row.int(6),
                ssim: row.optionalDouble(7), corpusDigest: row.string(8), images: row.int(9),
                timedRuns: row.int(10))
        }
    }
}
