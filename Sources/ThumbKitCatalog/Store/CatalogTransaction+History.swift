import Foundation

extension CatalogTransaction {
    // MARK: Benchmark history

    /// Stores a benchmark run and its results; returns the run.
    @discardableResult
    public func addBenchRun(
        date: Date, gitCommit: String, machine: String, note: String = "", results: [BenchResult]
    ) throws(CatalogError) -> BenchRun {
        let runID = try db.insert(
            into: "bench_runs", id: nil,
            [
                ("date", .text(Timestamp.string(from: date))), ("git_commit", .text(gitCommit)),
                ("machine", .text(machine)), ("note", .text(note)),
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
        let stored = Timestamp.date(from: Timestamp.string(from: date)) ?? date
        return BenchRun(id: runID, date: stored, gitCommit: gitCommit, machine: machine, note: note)
    }

    /// Benchmark runs, newest first; at most `limit` of them when given.
    public func benchRuns(limit: Int? = nil) throws(CatalogError) -> [BenchRun] {
        try db.query(
            "SELECT id, date, git_commit, machine, note FROM bench_runs ORDER BY date DESC, id DESC LIMIT ?",
            // No limit is the largest one: PostgreSQL refuses SQLite's -1.
            [.integer(limit.map { $0 < 0 ? Int.max : $0 } ?? Int.max)]
        ) { row throws(CatalogError) in
            BenchRun(
                id: row.int(0), date: try date(row.string(1), "bench run \(row.int(0))"), gitCommit: row.string(2),
                machine: row.string(3), note: row.string(4))
        }
    }

    /// Results of one run, or (with `runID` nil) of every run, filtered by job and tool when
    /// given; oldest run first, so a job/tool filter gives its history.
    public func benchResults(runID: Int? = nil, job: String? = nil, tool: String? = nil) throws(CatalogError)
        -> [BenchResult]
    {
        try db.query(
            """
            SELECT r.run_id, r.job, r.tool, r.images_per_second, r.megapixels_per_second, r.wall_median_seconds,
                   r.peak_rss_bytes, r.ssim, r.corpus_digest, r.images, r.timed_runs
            FROM bench_results r JOIN bench_runs b ON b.id = r.run_id
            WHERE (CAST(?1 AS BIGINT) IS NULL OR r.run_id = ?1) AND (CAST(?2 AS TEXT) IS NULL OR r.job = ?2)
              AND (CAST(?3 AS TEXT) IS NULL OR r.tool = ?3)
            ORDER BY b.date, b.id, r.id
            """,
            [runID.map { .integer($0) } ?? .null, .optional(job), .optional(tool)]
        ) { row in
            BenchResult(
                runID: row.int(0), job: row.string(1), tool: row.string(2), imagesPerSecond: row.double(3),
                megapixelsPerSecond: row.double(4), wallMedianSeconds: row.double(5), peakRSSBytes: row.int(6),
                ssim: row.optionalDouble(7), corpusDigest: row.string(8), images: row.int(9),
                timedRuns: row.int(10))
        }
    }

    // MARK: Watch-folder memory

    private static let ingestColumns =
        "id, path, sha256, record_kind, record_id, status, reason, processed_at FROM ingested_files"

    private func ingested(from row: CatalogRow) throws(CatalogError) -> IngestedFile {
        let id = row.int(0)
        guard let status = IngestedFile.Status(rawValue: row.string(5)) else {
            throw CatalogError.corrupt(path: connection.location, reason: "ingested file \(id) has an unknown status")
        }
        let record = row.optionalString(3).flatMap(RecordKind.init(rawValue:)).map {
            RecordRef(kind: $0, id: row.int(4))
        }
        return IngestedFile(
            id: id, path: row.string(1), sha256: row.string(2), record: record, status: status, reason: row.string(6),
            processedAt: try date(row.string(7), "ingested file \(id)"))
    }

    /// Records what became of a file with this content; a second call for the same
    /// (path, sha256) replaces the first.
    @discardableResult
    public func recordIngest(
        path: String, sha256: String, record: RecordRef?, status: IngestedFile.Status, reason: String = ""
    ) throws(CatalogError) -> IngestedFile {
        try db.run(
            """
            INSERT INTO ingested_files (path, sha256, record_kind, record_id, status, reason, processed_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (path, sha256) DO UPDATE SET record_kind = excluded.record_kind,
                record_id = excluded.record_id, status = excluded.status, reason = excluded.reason,
                processed_at = excluded.processed_at
            """,
            [
                .text(path), .text(sha256), .optional(record?.kind.rawValue), record.map { .integer($0.id) } ?? .null,
                .text(status.rawValue), .text(reason), .text(now),
            ])
        guard let stored = try ingestedFile(path: path, sha256: sha256) else {
            throw CatalogError.database(
                path: connection.location, reason: "ingested file '\(path)' vanished after it was written")
        }
        return stored
    }

    /// What became of the file at `path` with this content, or nil if it was never seen.
    public func ingestedFile(path: String, sha256: String) throws(CatalogError) -> IngestedFile? {
        try db.queryFirst("SELECT \(Self.ingestColumns) WHERE path = ? AND sha256 = ?", [.text(path), .text(sha256)]) {
            row throws(CatalogError) in try ingested(from: row)
        }
    }

    /// Every file seen, optionally only those with `status`, oldest first.
    public func ingestedFiles(status: IngestedFile.Status? = nil) throws(CatalogError) -> [IngestedFile] {
        try db.query(
            // The CAST gives PostgreSQL a type for a NULL that is only tested (see PostgresConnection.exec).
            "SELECT \(Self.ingestColumns) WHERE (CAST(?1 AS TEXT) IS NULL OR status = ?1) ORDER BY processed_at, id",
            [.optional(status?.rawValue)]
        ) { row throws(CatalogError) in try ingested(from: row) }
    }
}
