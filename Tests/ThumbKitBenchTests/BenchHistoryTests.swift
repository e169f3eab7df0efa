import Foundation
import Testing

@testable import ThumbKitCatalog
@testable import ThumbKitBench
import ThumbKitCatalogTestSupport

struct BenchHistoryTests {
    /// 2026-01-31 at `hour`:`minute` UTC.
    private static func january31(hour: Int, minute: Int) -> Date {
        Date(timeIntervalSince1970: 1_769_817_600 + Double(hour * 3600 + minute * 60))
    }

    private static func result(_ imagesPerSecond: Double, job: String = "bug-thumb/jpeg", tool: String = "thumbkit")
        -> BenchResult
    {
        BenchResult(
            job: job, tool: tool, imagesPerSecond: imagesPerSecond, megapixelsPerSecond: imagesPerSecond * 7,
            wallMedianSeconds: 40 / imagesPerSecond, peakRSSBytes: 100 << 20, ssim: 0.95)
    }

    /// A calendar one hour east of UTC: 23:30 UTC on January 31 is already February 1 there.
    private static var utcPlusOne: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 3600)!
        return calendar
    }

    private struct Fixture {
        let store: CatalogStore
        let mid: BenchRun  // Jan 15, 10 images/s
        let lateJanuary: BenchRun  // Jan 31 22:30 UTC (23:30 local), 20 images/s
        let midnight: BenchRun  // Jan 31 23:30 UTC (Feb 1 00:30 local), 40 images/s
        let february: BenchRun  // Feb 10, 30 images/s
    }

    /// Four runs saved out of date order, plus a peer result that must not mix with ours.
    private func fixture(_ workspace: TestWorkspace) throws -> Fixture {
        let store = try workspace.store()
        let february = try store.addBenchRun(
            date: Self.january31(hour: 24 * 10, minute: 0), gitCommit: "ddd", machine: "m",
            results: [Self.result(30), Self.result(5, tool: "pillow")])
        let midnight = try store.addBenchRun(
            date: Self.january31(hour: 23, minute: 30), gitCommit: "ccc", machine: "m", results: [Self.result(40)])
        let mid = try store.addBenchRun(
            date: Self.january31(hour: -16 * 24, minute: 0), gitCommit: "aaa", machine: "m",
            results: [Self.result(10), Self.result(99, job: "fit-256/jpeg")])
        let lateJanuary = try store.addBenchRun(
            date: Self.january31(hour: 22, minute: 30), gitCommit: "bbb", machine: "m", results: [Self.result(20)])
        return Fixture(store: store, mid: mid, lateJanuary: lateJanuary, midnight: midnight, february: february)
    }

    @Test func runsAreListedNewestFirstWhateverOrderTheyWereSavedIn() throws {
        let workspace = try TestWorkspace()
        let f = try fixture(workspace)
        #expect(try f.store.benchRuns().map(\.gitCommit) == ["ddd", "ccc", "bbb", "aaa"])
        #expect(try f.store.benchRuns(limit: 2).map(\.id) == [f.february.id, f.midnight.id])
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
        let store = try workspace.store()
        #expect(throws: BenchError.noSuchRun(id: 42)) {
            try BenchHistory.detail(runID: 42, store: store, calendar: Self.utcPlusOne)
        }
        #expect(BenchError.noSuchRun(id: 42).description.hasPrefix("run 42: no such benchmark run"))
    }

    @Test func savingAReportKeepsOneFigurePerJobSetAndTool() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store()
        let report = BenchReportTests.sample()
        let run = try BenchHistory.save(report, note: "baseline", to: store)
        #expect(run.gitCommit == report.environment.gitCommit && run.machine == report.environment.machine)
        #expect(run.note == "baseline")
        let stored = try store.benchResults(runID: run.id)
        #expect(
            stored.map { "\($0.job) \($0.tool)" } == [
                "bug-thumb/jpeg thumbkit", "bug-thumb/jpeg vipsthumbnail", "bug-thumb/jpeg floor-djpeg",
            ])
        #expect(stored[0].imagesPerSecond == 30 && stored[0].wallMedianSeconds == 4 / 3)
        #expect(stored[0].ssim == 0.93 && stored[2].ssim == nil)
    }
}
