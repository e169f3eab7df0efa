// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitBench
@testable import ThumbKitCatalog

/// The benchmark history's own store: its reads and writes, the files it refuses, and the import
/// of the runs older releases kept in a catalog.
struct BenchHistoryStoreTests {
    private static let result = BenchResult(
        job: "jpeg-fill-88", tool: "thumbkit", imagesPerSecond: 25.5, megapixelsPerSecond: 180,
        wallMedianSeconds: 1.6, peakRSSBytes: 80 << 20, ssim: 0.93)

    /// Saves two runs through `add` and checks what `runs` and `results` give back.
    private static func storesAndLists(
        add: (Date, String, String, [BenchResult]) throws -> BenchRun, runs: (Int?) throws -> [BenchRun],
        results: (Int?, String?, String?) throws -> [BenchResult]
    ) throws {
        let old = try add(Date(timeIntervalSince1970: 1_700_000_000), "aaa", "", [result])
        var other = result
        other.tool = "vipsthumbnail"
        other.ssim = nil
        let new = try add(Date(timeIntervalSince1970: 1_700_086_400.25), "bbb", "after fix", [result, other])
        #expect(try runs(nil).map(\.gitCommit) == ["bbb", "aaa"])
        #expect(try runs(1) == [new])
        #expect(new.date.timeIntervalSince1970 == 1_700_086_400.25 && new.note == "after fix")
        let newResults = try results(new.id, nil, nil)
        #expect(newResults.map(\.tool) == ["thumbkit", "vipsthumbnail"])
        #expect(newResults.last?.ssim == nil)
        let history = try results(nil, "jpeg-fill-88", "thumbkit")
        #expect(history.map(\.runID) == [old.id, new.id])
        #expect(history.first?.imagesPerSecond == 25.5 && history.first?.peakRSSBytes == 80 << 20)
    }

    @Test func runsAndResultsAreStoredAndListedNewestFirst() throws {
        let workspace = try TestWorkspace()
        let store = try BenchHistoryStore(path: workspace.path("thumbkit-bench.sqlite"))
        try Self.storesAndLists(
            add: { try store.addRun(date: $0, gitCommit: $1, machine: "2 vCPU", note: $2, results: $3) },
            runs: { try store.runs(limit: $0) }, results: { try store.results(runID: $0, job: $1, tool: $2) })
        #expect(try store.schemaVersion() == 1)
        #expect(try workspace.listing().contains("thumbkit-bench.sqlite"))
    }

    /// On both backends: the history's SQL reads a catalog's old tables (what the import does),
    /// where a filter left out (nil) is a NULL that PostgreSQL must be told the type of.
    @Test(arguments: CatalogBackend.all) func theHistorysSQLReadsACatalogsOldTables(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let catalog = try workspace.store(backend: backend)
        try Self.storesAndLists(
            add: { date, commit, note, results in
                try catalog.write {
                    try BenchHistoryTables(db: $0.db).addRun(
                        date: date, gitCommit: commit, machine: "2 vCPU", note: note, results: results)
                }
            },
            runs: { limit in try catalog.read { try BenchHistoryTables(db: $0.db).runs(limit: limit) } },
            results: { id, job, tool in
                try catalog.read { try BenchHistoryTables(db: $0.db).results(runID: id, job: job, tool: tool) }
            })
    }

    // MARK: Files that are no history

    /// The ways `--history` could name a file that is not a history, each written to `name`.
    enum Foreign: String, CaseIterable, Sendable {
        case jpeg, text, empty, catalog, otherDatabase

        /// Writes the file; returns its path.
        func write(in workspace: TestWorkspace) throws -> String {
            switch self {
            case .jpeg: return try workspace.jpeg("photo.jpg", seed: 3)
            case .text:
                return try workspace.write("notes.txt", text: String(repeating: "my notes, keep them\n", count: 40))
            case .empty: return try workspace.write("empty.sqlite", [])
            case .catalog:
                let path = workspace.path("thumbkit.sqlite")
                let catalog = try CatalogStore(path: path)
                try catalog.write { try $0.addBug(title: "Kept") }
                try BenchHistoryStoreTests.keep([.january5], in: catalog)
                return path
            case .otherDatabase:
                let path = workspace.path("other.sqlite")
                try SQLiteConnection(path: path, busyTimeoutMilliseconds: 100).execute(
                    "CREATE TABLE bench_runs (x); CREATE TABLE bench_results (y); INSERT INTO bench_runs VALUES (1)")
                return path
            }
        }
    }

    @Test(arguments: Foreign.allCases) func aFileThatIsNoHistoryIsRefusedAndLeftAsItWas(foreign: Foreign) throws {
        let workspace = try TestWorkspace()
        let path = try foreign.write(in: workspace)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let listing = try workspace.listingApartFromEmptyWAL()
        for readOnly in [false, true] {
            let error = catalogError { try BenchHistoryStore(path: path, readOnly: readOnly) }
            guard case .corrupt(let subject, let reason) = error else {
                Issue.record("\(foreign), readOnly \(readOnly): expected corrupt, got \(String(describing: error))")
                continue
            }
            #expect(subject == path)
            #expect(
                reason.contains("not a thumbkit benchmark history")
                    || reason.hasPrefix("cannot be read as a thumbkit benchmark history (file is not a database)"),
                "\(reason)")
            #expect(
                reason.hasSuffix(
                    "give --history a file of its own (a catalog's old runs are copied with "
                        + "'thumbkit bench history --import-catalog CATALOG')") || foreign == .empty, "\(reason)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try workspace.listingApartFromEmptyWAL() == listing)
    }

    @Test func aCatalogIsRefusedWithWhatToDoInstead() throws {
        let workspace = try TestWorkspace()
        let path = try Foreign.catalog.write(in: workspace)
        let error = catalogError { try BenchHistoryStore(path: path) }
        #expect(
            error?.reason
                == "not a thumbkit benchmark history (another kind of database); give --history a file of its own "
                + "(a catalog's old runs are copied with 'thumbkit bench history --import-catalog CATALOG')")
    }

    // MARK: Import

    /// A run as an older thumbkit saved it in a catalog.
    struct OldRun: Sendable {
        let date: Date
        let gitCommit: String
        let note: String
        let results: [BenchResult]

        /// 2026-01-05 12:00:00.125 UTC, two results.
        static let january5 = OldRun(
            date: Date(timeIntervalSince1970: 1_767_614_400.125), gitCommit: "aaa", note: "",
            results: [
                result,
                BenchResult(
                    job: "fit-256/png", tool: "pillow", imagesPerSecond: 3, megapixelsPerSecond: 9,
                    wallMedianSeconds: 7, peakRSSBytes: 1 << 20, corpusDigest: "d1", images: 20, timedRuns: 5),
            ])
    }

    /// Saves `runs` into the catalog's old tables, as older releases did (with the history's own
    /// SQL: the tables have the same columns).
    static func keep(_ runs: [OldRun], in catalog: CatalogStore) throws {
        try catalog.write { tx in
            for run in runs {
                try BenchHistoryTables(db: tx.db).addRun(
                    date: run.date, gitCommit: run.gitCommit, machine: "2 vCPU", note: run.note, results: run.results)
            }
        }
    }

    /// Everything a catalog holds, to tell whether it changed: on SQLite its file's bytes and
    /// its folder's listing (SQLite's empty WAL files apart, see `listingApartFromEmptyWAL`), on
    /// PostgreSQL every row of every table.
    static func snapshot(_ catalog: CatalogLocation, in workspace: TestWorkspace) throws -> [String] {
        switch catalog {
        case .sqlite(let path):
            return [try Data(contentsOf: URL(fileURLWithPath: path)).base64EncodedString()]
                + (try workspace.listingApartFromEmptyWAL())
        case .postgres:
            let store = try CatalogStore(location: catalog, readOnly: true, mustExist: true)
            return try store.read { tx in
                try CatalogCopy.tables.flatMap { table in
                    try tx.db.query("SELECT \(table.columns.joined(separator: ", ")) FROM \(table.name) ORDER BY 1") {
                        row in
                        "\(table.name): "
                            + (0..<Int32(table.columns.count)).map { "\(row.value($0))" }.joined(separator: ", ")
                    }
                }
            } + [String(try store.schemaVersion())]
        }
    }

    /// The run's content, without ids: what must survive the copy.
    private static func content(_ store: BenchHistoryStore) throws -> [String] {
        let (runs, results) = try store.runsAndResults()
        return runs.map { run in
            "\(Timestamp.string(from: run.date)) \(run.gitCommit) \(run.machine) \(run.note): "
                + results.filter { $0.runID == run.id }.map {
                    "\($0.job) \($0.tool) \($0.imagesPerSecond) \($0.megapixelsPerSecond) \($0.wallMedianSeconds) "
                        + "\($0.peakRSSBytes) \(String(describing: $0.ssim)) \($0.corpusDigest) \($0.images) \($0.timedRuns)"
                }.joined(separator: "; ")
        }
    }

    /// On both backends: the runs a catalog kept are copied once, with every figure, runs equal
    /// in everything are counted rather than merged, and the catalog is left as it was.
    @Test(arguments: CatalogBackend.all) func importCopiesACatalogsRunsOnceAndLeavesItAsItWas(backend: CatalogBackend)
        throws
    {
        let workspace = try TestWorkspace()
        let january6 = Date(timeIntervalSince1970: 1_767_700_800)
        var faster = Self.result
        faster.imagesPerSecond = 31
        let runs = [
            OldRun.january5, OldRun.january5,  // saved twice in one millisecond: two runs
            OldRun(date: january6, gitCommit: "bbb", note: "after fix", results: [Self.result]),
            OldRun(date: january6, gitCommit: "bbb", note: "after fix", results: [faster]),
        ]
        do {
            let catalog = try workspace.store(backend: backend)
            try catalog.write { try $0.addBug(title: "Kept") }
            try Self.keep(runs, in: catalog)
        }
        let location = try backend.location(in: workspace)
        let before = try Self.snapshot(location, in: workspace)

        let history = try BenchHistoryStore(path: workspace.path("thumbkit-bench.sqlite"))
        let ours = try history.addRun(
            date: Date(timeIntervalSince1970: 1_770_000_000), gitCommit: "ccc", machine: "2 vCPU", results: [])
        let listingWithHistory = try workspace.listingApartFromEmptyWAL()
        let first = try history.importRuns(from: CatalogStore(location: location, readOnly: true, mustExist: true))
        #expect(first == BenchHistoryImport(copiedRuns: 4, copiedResults: 6, presentRuns: 0))
        let copied = try Self.content(history)
        #expect(copied.count == 5 && copied.first?.hasPrefix("2026-02-02T02:40:00.000Z ccc") == true)
        #expect(
            copied.filter { $0.hasPrefix("2026-01-05T12:00:00.125Z aaa 2 vCPU : jpeg-fill-88 thumbkit 25.5 ") }.count
                == 2)
        #expect(copied.contains { $0.hasSuffix("fit-256/png pillow 3.0 9.0 7.0 1048576 nil d1 20 5") })
        #expect(copied.filter { $0.contains("bbb 2 vCPU after fix: jpeg-fill-88 thumbkit") }.count == 2)
        #expect(try history.runs().first == ours)

        let second = try history.importRuns(from: CatalogStore(location: location, readOnly: true, mustExist: true))
        #expect(second == BenchHistoryImport(copiedRuns: 0, copiedResults: 0, presentRuns: 4))
        #expect(try Self.content(history) == copied)

        if case .sqlite = location {
            #expect(try Self.snapshot(location, in: workspace) == [before[0]] + listingWithHistory)
        } else {
            #expect(try Self.snapshot(location, in: workspace) == before)
        }
    }

    @Test func aCatalogFromBeforeTheHistoryHasNothingToImport() throws {
        let workspace = try TestWorkspace()
        let path = workspace.path("thumbkit.sqlite")
        _ = try CatalogStore(path: path, busyTimeout: .seconds(1), schemaVersion: 1)
        let history = try BenchHistoryStore(path: workspace.path("thumbkit-bench.sqlite"))
        let none = try history.importRuns(from: CatalogStore(path: path, readOnly: true))
        #expect(none == BenchHistoryImport(copiedRuns: 0, copiedResults: 0, presentRuns: 0))
        #expect(try history.runs().isEmpty)
    }
}
