// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitCatalog

/// The benchmark history: every saved `thumbkit bench` run with its figures, in an SQLite file of
/// its own (by default `./thumbkit-bench.sqlite`), never in a user's catalog.
///
/// SQLite only: the history describes the runs of one machine (each run records its machine,
/// and the detail view compares it with the runs of its month), so there is nothing to share
/// through a server. A catalog of older releases that kept runs (on either backend) is read by
/// `importRuns(from:)`.
///
/// It is the catalog's store machinery with another schema (`BenchHistorySchema`): the same
/// SQLite connection, statements, transactions and migrations, through `package` access. So it
/// behaves as `CatalogStore` does: WAL mode, one writer at a time between processes (waiting up
/// to `busyTimeout`), and a file that is there must be a history: an empty file, a catalog,
/// another program's database or a file that is no database at all is refused with
/// `CatalogError.corrupt` and left as it was.
package final class BenchHistoryStore: Sendable {
    /// Where `thumbkit bench` keeps the history unless told otherwise (`--history`).
    package static let defaultPath = "./thumbkit-bench.sqlite"

    /// The database file.
    package let path: String

    private let connection: GuardedConnection

    /// Opens the history at `path`, creating it (unless `readOnly`) when no file is there.
    ///
    /// - Parameters:
    ///   - path: The database file. Its folder must exist.
    ///   - busyTimeout: How long to wait for another process's write lock.
    ///   - readOnly: Open for reading only: the file must exist and is not migrated.
    /// - Throws: `CatalogError.open` (missing folder, permissions), `.notFound` (read-only and
    ///   missing), `.corrupt` (not a benchmark history), `.locked` or `.schema` (a newer version).
    package init(path: String, busyTimeout: Duration = .seconds(5), readOnly: Bool = false) throws {
        self.path = path
        connection = GuardedConnection(
            try BenchHistorySchema.definition.openSQLite(
                path: path, busyTimeoutMilliseconds: busyTimeout.timeoutMilliseconds, readOnly: readOnly,
                mustExist: readOnly))
    }

    /// Runs `body` in a write transaction: all of it is saved, or (when it throws) none.
    func write<T>(_ body: (BenchHistoryTables) throws -> T) throws -> T {
        try connection.transaction(write: true) { try body(BenchHistoryTables(db: $0)) }
    }

    /// Runs `body` in a read transaction, so all its queries see one snapshot.
    func read<T>(_ body: (BenchHistoryTables) throws -> T) throws -> T {
        try connection.transaction(write: false) { try body(BenchHistoryTables(db: $0)) }
    }

    /// Stores a run with its results (one transaction); returns the run.
    @discardableResult
    package func addRun(
        date: Date, gitCommit: String, machine: String, note: String = "", results: [BenchResult]
    ) throws -> BenchRun {
        try write { try $0.addRun(date: date, gitCommit: gitCommit, machine: machine, note: note, results: results) }
    }

    /// Runs, newest first; at most `limit` of them when given.
    package func runs(limit: Int? = nil) throws -> [BenchRun] { try read { try $0.runs(limit: limit) } }

    /// Results, filtered by run, job and tool when given; oldest run first.
    package func results(runID: Int? = nil, job: String? = nil, tool: String? = nil) throws -> [BenchResult] {
        try read { try $0.results(runID: runID, job: job, tool: tool) }
    }

    /// Every run (newest first) and every result (oldest run first), in one snapshot.
    package func runsAndResults() throws -> (runs: [BenchRun], results: [BenchResult]) {
        try read { tables in (try tables.runs(), try tables.results()) }
    }

    /// The schema version (`PRAGMA user_version`).
    package func schemaVersion() throws -> Int {
        try connection.transaction(write: false) { try $0.dialect.schemaVersion($0) }
    }
}
