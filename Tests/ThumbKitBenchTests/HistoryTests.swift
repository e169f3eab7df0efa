import Foundation
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitBench
@testable import ThumbKitCatalog

struct HistoryTests {
    /// On both backends: a filter left out (nil) is a NULL that PostgreSQL must be told the type of.
    @Test(arguments: CatalogBackend.all) func benchRunsAndResultsAreStoredAndListedNewestFirst(backend: CatalogBackend)
        throws
    {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let result = BenchResult(
            job: "jpeg-fill-88", tool: "thumbkit", imagesPerSecond: 25.5, megapixelsPerSecond: 180,
            wallMedianSeconds: 1.6, peakRSSBytes: 80 << 20, ssim: 0.93)
        let old = try store.addBenchRun(
            date: Date(timeIntervalSince1970: 1_700_000_000), gitCommit: "aaa", machine: "2 vCPU", results: [result])
        var other = result
        other.tool = "vipsthumbnail"
        other.ssim = nil
        let new = try store.addBenchRun(
            date: Date(timeIntervalSince1970: 1_700_086_400.25), gitCommit: "bbb", machine: "2 vCPU", note: "after fix",
            results: [result, other])
        #expect(try store.benchRuns().map(\.gitCommit) == ["bbb", "aaa"])
        #expect(try store.benchRuns(limit: 1) == [new])
        #expect(new.date.timeIntervalSince1970 == 1_700_086_400.25)
        let newResults = try store.benchResults(runID: new.id)
        #expect(newResults.map(\.tool) == ["thumbkit", "vipsthumbnail"])
        #expect(newResults.last?.ssim == nil)
        let history = try store.benchResults(job: "jpeg-fill-88", tool: "thumbkit")
        #expect(history.map(\.runID) == [old.id, new.id])
        #expect(history.first?.imagesPerSecond == 25.5 && history.first?.peakRSSBytes == 80 << 20)
    }

    /// On both backends: a filter left out (nil) is a NULL that PostgreSQL must be told the type of.
    @Test(arguments: CatalogBackend.all) func anIngestedFileIsRememberedByPathAndContent(backend: CatalogBackend) throws
    {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        try store.write { tx in
            try tx.recordIngest(path: "/in/a.jpg", sha256: "h1", record: nil, status: .pending)
            try tx.recordIngest(path: "/in/a.jpg", sha256: "h1", record: .bug(4), status: .imported)
            try tx.recordIngest(path: "/in/a.jpg", sha256: "h2", record: nil, status: .failed, reason: "not an image")
        }
        let seen = try store.read { try $0.ingestedFile(path: "/in/a.jpg", sha256: "h1") }
        #expect(seen?.status == .imported)
        #expect(seen?.record == .bug(4))
        #expect(try store.read { try $0.ingestedFiles() }.count == 2)
        #expect(try store.read { try $0.ingestedFiles(status: .failed) }.map(\.reason) == ["not an image"])
        #expect(try store.read { try $0.ingestedFile(path: "/in/b.jpg", sha256: "h1") } == nil)
    }

    @Test(arguments: [0.0, 1_700_000_000.123, -86_400.5, 4_102_444_800])
    func timestampsRoundTripToTheMillisecond(seconds: Double) throws {
        let text = Timestamp.string(from: Date(timeIntervalSince1970: seconds))
        let back = try #require(Timestamp.date(from: text))
        #expect(abs(back.timeIntervalSince1970 - seconds) < 0.0011)
        #expect(text.hasSuffix("Z") && text.count == 24)
    }

    @Test func timestampTextIsISO8601() {
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: 1_700_000_000.5)) == "2023-11-14T22:13:20.500Z")
        #expect(Timestamp.date(from: "garbage") == nil)
    }
}
