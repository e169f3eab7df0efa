// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitCatalog

/// What `BenchHistoryStore.importRuns(from:)` did.
package struct BenchHistoryImport: Sendable, Hashable {
    /// Runs copied into the history.
    package let copiedRuns: Int
    /// Their results.
    package let copiedResults: Int
    /// Runs of the catalog the history held already.
    package let presentRuns: Int
}

extension BenchHistoryStore {
    /// Copies the runs that `catalog` kept (older releases saved the history in the catalog's
    /// `bench_runs` and `bench_results`) and this history lacks, with their results; returns how
    /// many. The catalog is only read, in one snapshot (open it read-only); the copies are
    /// written in one transaction. A catalog from before the history (schema version 1) holds
    /// none; one at version 2 has results of unknown corpus.
    ///
    /// A catalog run is in the history already when the history holds a run with the same date
    /// (to the millisecond, as both store it), git commit, machine and note *and the same
    /// results* (job, tool and every figure, in order). Date, commit and machine alone would
    /// merge distinct runs saved in one millisecond (scripts and tests save several at once);
    /// the results make the identity the run's whole content, which never changes once saved.
    /// Runs equal in all of it are counted, not merged: a catalog holding two gives two. So a
    /// second import copies nothing, and importing a copy of the catalog (`catalog copy`, which
    /// keeps its runs) copies nothing either.
    @discardableResult
    package func importRuns(from catalog: CatalogStore) throws -> BenchHistoryImport {
        let (runs, results) = try catalog.read { tx in
            // Version 2 made the tables, version 3 the measurement columns (catalog migrations);
            // read in the same snapshot as the rows.
            let version = try tx.db.dialect.schemaVersion(tx.db)
            guard version >= 2 else { return ([BenchRun](), [Int: [BenchResult]]()) }
            let tables = BenchHistoryTables(db: tx.db, recordsMeasurement: version >= 3)
            return (try tables.runs(), Dictionary(grouping: try tables.results(), by: \.runID))
        }
        return try write { tables in
            var present: [RunIdentity: Int] = [:]
            let ours = Dictionary(grouping: try tables.results(), by: \.runID)
            for run in try tables.runs() { present[RunIdentity(run, results: ours[run.id] ?? []), default: 0] += 1 }
            var copied = (runs: 0, results: 0)
            for run in runs.sorted(by: { $0.id < $1.id }) {
                let identity = RunIdentity(run, results: results[run.id] ?? [])
                if let count = present[identity], count > 0 {
                    present[identity] = count - 1
                    continue
                }
                try tables.addRun(
                    date: run.date, gitCommit: run.gitCommit, machine: run.machine, note: run.note,
                    results: identity.results)
                copied.runs += 1
                copied.results += identity.results.count
            }
            return BenchHistoryImport(
                copiedRuns: copied.runs, copiedResults: copied.results, presentRuns: runs.count - copied.runs)
        }
    }
}

/// What makes two stored runs the same run (see `BenchHistoryStore.importRuns(from:)`).
private struct RunIdentity: Hashable {
    let date: String
    let gitCommit: String
    let machine: String
    let note: String
    /// The run's results in stored order, without their run id.
    let results: [BenchResult]

    init(_ run: BenchRun, results: [BenchResult]) {
        date = Timestamp.string(from: run.date)
        gitCommit = run.gitCommit
        machine = run.machine
        note = run.note
        self.results = results.map { result in
            var result = result
            result.runID = 0
            return result
        }
    }
}
