// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitBench
@testable import ThumbKitCatalog

struct BenchHistoryTests {
    /// 2026-01-31 at `hour`:`minute` UTC.
    private static func january31(hour: Int, minute: Int) -> Date {
        Date(timeIntervalSince1970: 1_769_817_600 + Double(hour * 3600 + minute * 60))
    }

    private static func result(
        _ imagesPerSecond: Double, job: String = "bug-thumb/jpeg", tool: String = "thumbkit",
        corpus: String = "corpus-a", images: Int = 40, timedRuns: Int = 5
    ) -> BenchResult {
        BenchResult(
            job: job, tool: tool, imagesPerSecond: imagesPerSecond, megapixelsPerSecond: imagesPerSecond * 7,
            wallMedianSeconds: 40 / imagesPerSecond, peakRSSBytes: 100 << 20, ssim: 0.95, corpusDigest: corpus,
            images: images, timedRuns: timedRuns)
    }

    /// A fresh benchmark history in `workspace`.
    static func history(in workspace: TestWorkspace) throws -> BenchHistoryStore {
        try BenchHistoryStore(path: workspace.path("thumbkit-bench.sqlite"))
    }

    /// A calendar one hour east of UTC: 23:30 UTC on January 31 is already February 1 there.
    private static var utcPlusOne: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 3600)!
        return calendar
    }

    private struct Fixture {
        let store: BenchHistoryStore
        let mid: BenchRun  // Jan 15, 10 images/s
        let lateJanuary: BenchRun  // Jan 31 22:30 UTC (23:30 local), 20 images/s
        let midnight: BenchRun  // Jan 31 23:30 UTC (Feb 1 00:30 local), 40 images/s
        let february: BenchRun  // Feb 10, 30 images/s
    }

    /// Four runs saved out of date order, plus a peer result that must not mix with ours.
    private func fixture(_ workspace: TestWorkspace) throws -> Fixture {
        let store = try Self.history(in: workspace)
        let february = try store.addRun(
            date: Self.january31(hour: 24 * 10, minute: 0), gitCommit: "ddd", machine: "m",
            results: [Self.result(30), Self.result(5, tool: "pillow")])
        let midnight = try store.addRun(
            date: Self.january31(hour: 23, minute: 30), gitCommit: "ccc", machine: "m", results: [Self.result(40)])
        let mid = try store.addRun(
            date: Self.january31(hour: -16 * 24, minute: 0), gitCommit: "aaa", machine: "m",
            results: [Self.result(10), Self.result(99, job: "fit-256/jpeg")])
        let lateJanuary = try store.addRun(
            date: Self.january31(hour: 22, minute: 30), gitCommit: "bbb", machine: "m", results: [Self.result(20)])
        return Fixture(store: store, mid: mid, lateJanuary: lateJanuary, midnight: midnight, february: february)
    }

    @Test func runsAreListedNewestFirstWhateverOrderTheyWereSavedIn() throws {
        let workspace = try TestWorkspace()
        let f = try fixture(workspace)
        #expect(try f.store.runs().map(\.gitCommit) == ["ddd", "ccc", "bbb", "aaa"])
        #expect(try f.store.runs(limit: 2).map(\.id) == [f.february.id, f.midnight.id])
    }

    @Test func aRunIsComparedWithTheRunsOfItsOwnCalendarMonthInTheUsersTimeZone() throws {
        let workspace = try TestWorkspace()
        let f = try fixture(workspace)
        let calendar = Self.utcPlusOne

        // 23:30 local on January 31: January holds 10 and 20.
        let january = try BenchHistory.detail(runID: f.lateJanuary.id, store: f.store, calendar: calendar)
        let ours = try #require(january.comparisons.first)
        #expect(january.comparisons.count == 1)
        #expect(ours.value == 20 && ours.monthMin == 10 && ours.monthMax == 20 && ours.monthMean == 15)
        #expect(ours.monthRuns == 2)
        #expect(ours.lossFromBest == 0 && ours.gainOverWorst == 1)
        #expect(ours.standing == .better)

        // 00:30 local on February 1: February holds 40 and 30 (not the peer's 5).
        let midnight = try BenchHistory.detail(runID: f.midnight.id, store: f.store, calendar: calendar)
        let first = try #require(midnight.comparisons.first)
        #expect(first.monthMin == 30 && first.monthMax == 40 && first.monthMean == 35 && first.monthRuns == 2)
        #expect(abs(first.gainOverWorst - 1.0 / 3.0) < 1e-12)
        #expect(midnight.month.start == Date(timeIntervalSince1970: 1_769_900_400))  // Feb 1 00:00 +01:00

        let february = try BenchHistory.detail(runID: f.february.id, store: f.store, calendar: calendar)
        let ourFebruary = try #require(february.comparisons.first { $0.tool == "thumbkit" })
        #expect(ourFebruary.standing == .worse)
        #expect(ourFebruary.lossFromBest == 0.25 && ourFebruary.gainOverWorst == 0)
        let peer = try #require(february.comparisons.first { $0.tool == "pillow" })
        #expect(peer.monthRuns == 1 && peer.standing == .same)
    }

    @Test func theSameRunsFallInJanuaryInUTC() throws {
        let workspace = try TestWorkspace()
        let f = try fixture(workspace)
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let detail = try BenchHistory.detail(runID: f.midnight.id, store: f.store, calendar: utc)
        let ours = try #require(detail.comparisons.first)
        #expect(ours.monthRuns == 3 && ours.monthMin == 10 && ours.monthMax == 40)
        #expect(abs(ours.monthMean - 70.0 / 3.0) < 1e-12)
        #expect(ours.standing == .better && ours.lossFromBest == 0)
    }

    @Test func anUnknownRunIsAClearError() throws {
        let workspace = try TestWorkspace()
        let store = try Self.history(in: workspace)
        #expect(throws: BenchError.noSuchRun(id: 42)) {
            try BenchHistory.detail(runID: 42, store: store, calendar: Self.utcPlusOne)
        }
        #expect(BenchError.noSuchRun(id: 42).description.hasPrefix("run 42: no such benchmark run"))
    }

    @Test func savingAReportKeepsOneFigurePerJobSetAndTool() throws {
        let workspace = try TestWorkspace()
        let store = try Self.history(in: workspace)
        let report = BenchReportTests.sample()
        let run = try BenchHistory.save(report, note: "baseline", to: store)
        #expect(run.gitCommit == report.environment.gitCommit && run.machine == report.environment.machine)
        #expect(run.note == "baseline")
        let stored = try store.results(runID: run.id)
        #expect(
            stored.map { "\($0.job) \($0.tool)" } == [
                "bug-thumb/jpeg thumbkit", "bug-thumb/jpeg vipsthumbnail", "bug-thumb/jpeg floor-djpeg",
            ])
        #expect(stored[0].imagesPerSecond == 30 && stored[0].wallMedianSeconds == 4 / 3)
        #expect(stored[0].ssim == 0.93 && stored[2].ssim == nil)
    }

    @Test func aRunIsComparedOnlyWithRunsOfTheSameCorpusImagesAndRunCount() throws {
        let workspace = try TestWorkspace()
        let store = try Self.history(in: workspace)
        let day = Self.january31(hour: -24 * 5, minute: 0)
        // Three runs on the 3-image corpus, then one on a 1-image corpus (much faster per run,
        // slower per image), one with another run count, and one saved before the corpus was
        // recorded.
        for speed in [30.0, 40, 50] {
            try store.addRun(
                date: day, gitCommit: "a", machine: "m", results: [Self.result(speed, corpus: "three", images: 3)])
        }
        let small = try store.addRun(
            date: day, gitCommit: "b", machine: "m", results: [Self.result(23, corpus: "one", images: 1)])
        let fewerRuns = try store.addRun(
            date: day, gitCommit: "c", machine: "m",
            results: [Self.result(45, corpus: "three", images: 3, timedRuns: 1)])
        let legacy = try store.addRun(
            date: day, gitCommit: "d", machine: "m", results: [Self.result(60, corpus: "", images: 0, timedRuns: 0)])

        let alone = try #require(
            try BenchHistory.detail(runID: small.id, store: store, calendar: Self.utcPlusOne).comparisons.first)
        #expect(alone.monthRuns == 1 && alone.lossFromBest == 0 && alone.standing == .same)
        #expect(alone.incomparableRuns == 5 && alone.corpusKnown)

        let other = try #require(
            try BenchHistory.detail(runID: fewerRuns.id, store: store, calendar: Self.utcPlusOne).comparisons.first)
        #expect(other.monthRuns == 1 && other.monthMax == 45)

        let unknown = try #require(
            try BenchHistory.detail(runID: legacy.id, store: store, calendar: Self.utcPlusOne).comparisons.first)
        #expect(unknown.monthRuns == 1 && !unknown.corpusKnown && unknown.monthMin == 60)

        let runs = try store.runs()
        let last3 = try #require(runs.first { $0.gitCommit == "a" })
        let like = try #require(
            try BenchHistory.detail(runID: last3.id, store: store, calendar: Self.utcPlusOne).comparisons.first)
        #expect(like.monthRuns == 3 && like.monthMin == 30 && like.monthMax == 50 && like.monthMean == 40)
    }

    @Test func theCorpusIdentityAndRunCountAreStoredWithEachResult() throws {
        let workspace = try TestWorkspace()
        let store = try Self.history(in: workspace)
        let run = try store.addRun(
            date: Self.january31(hour: 1, minute: 0), gitCommit: "a", machine: "m",
            results: [Self.result(30, corpus: "abc123", images: 3, timedRuns: 7)])
        let stored = try #require(try store.results(runID: run.id).first)
        #expect(stored.corpusDigest == "abc123" && stored.images == 3 && stored.timedRuns == 7)
    }

    /// A catalog at schema version 2 kept runs before results recorded their corpus: imported,
    /// they read as of unknown corpus, comparable with no other run.
    @Test func aVersionTwoCatalogsRunsAreImportedAndTheirResultsReadAsOfUnknownCorpus() throws {
        let workspace = try TestWorkspace()
        let path = workspace.path("thumbkit.sqlite")
        do {
            let old = try CatalogStore(path: path, busyTimeout: .seconds(1), schemaVersion: 2)
            try old.write { tx in
                try tx.connection.execute(
                    """
                    INSERT INTO bench_runs (id, date, git_commit, machine) VALUES (1, '2026-01-05T12:00:00.000Z', 'a', 'm');
                    INSERT INTO bench_results (run_id, job, tool, images_per_second, megapixels_per_second,
                        wall_median_seconds, peak_rss_bytes, ssim) VALUES (1, 'bug-thumb/jpeg', 'thumbkit', 9, 60, 4, 1, NULL);
                    """)
            }
        }
        let store = try Self.history(in: workspace)
        let imported = try store.importRuns(from: CatalogStore(path: path, readOnly: true))
        #expect(imported == BenchHistoryImport(copiedRuns: 1, copiedResults: 1, presentRuns: 0))
        // Read only: the catalog is still at version 2.
        #expect(try CatalogStore(path: path, readOnly: true).schemaVersion() == 2)
        let old = try #require(try store.results().first)
        #expect(old.imagesPerSecond == 9 && old.corpusDigest.isEmpty && old.images == 0 && old.timedRuns == 0)
        let run = try store.addRun(
            date: Self.january31(hour: -24 * 20, minute: 0), gitCommit: "b", machine: "m",
            results: [Self.result(30, corpus: "new", images: 3)])
        let detail = try BenchHistory.detail(runID: run.id, store: store, calendar: Self.utcPlusOne)
        #expect(detail.comparisons.first?.monthRuns == 1 && detail.comparisons.first?.incomparableRuns == 1)
        // Migrating the catalog later keeps its old runs where they were.
        let migrated = try CatalogStore(path: path)
        #expect(try migrated.schemaVersion() == CatalogStore.latestSchemaVersion)
        #expect(try migrated.read { try BenchHistoryTables(db: $0.db).results() }.map(\.imagesPerSecond) == [9])
    }
}
