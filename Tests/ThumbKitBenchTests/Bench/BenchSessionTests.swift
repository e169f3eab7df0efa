// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitBench
@testable import ThumbKitCatalog

struct BenchSessionTests {
    private func session(tools: [BenchTool], jobs: [BenchJob] = [.bugThumb, .icons]) -> BenchSession {
        BenchSession(
            options: BenchSession.Options(
                corpus: BenchJobTests.corpus, jobs: jobs,
                tools: tools.map { BenchPeer(tool: $0, executable: "/bin/\($0.rawValue)", version: "1") }, runs: 3,
                parallel: 2, linearLight: false, programs: BenchJobTests.programs, workFolder: "/w",
                peersRequested: true, limitRequested: true))
    }

    private func timing(_ key: String, _ tool: BenchTool, walls: [Double], failures: [String] = [])
        -> BenchRunner.Timing
    {
        BenchRunner.Timing(
            key: key, tool: tool.rawValue,
            runs: walls.map {
                BenchMeasurement(wallSeconds: $0, cpuSeconds: 2 * $0, peakRSSBytes: Int($0 * 1000), failures: failures)
            },
            outputFolder: "/w/\(tool.rawValue)", failureLog: nil)
    }

    @Test func eachJobAndSetIsAGroupOfTheToolsThatRunIt() {
        let groups = session(tools: [.thumbkit, .imagemagickHint, .djpegFloor, .decodeFloor]).groups()
        // The icons job runs on the demo catalog, ThumbKit alone.
        #expect(
            groups.map { $0.map { "\($0.key) \($0.tool)" } } == [
                [
                    "bug-thumb/jpeg thumbkit", "bug-thumb/jpeg imagemagick-hint", "bug-thumb/jpeg floor-djpeg",
                    "bug-thumb/jpeg floor-decode",
                ],
                ["bug-thumb/png thumbkit", "bug-thumb/png floor-decode"],
                ["icons/demo thumbkit"],
            ])
    }

    @Test func figuresComeFromTheMedianRunAndRatiosFromThumbKitsSpeed() throws {
        let session = session(tools: [.thumbkit, .vipsthumbnail, .djpegFloor])
        let timings = [
            timing("bug-thumb/jpeg", .thumbkit, walls: [0.5, 0.2, 0.1]),
            timing("bug-thumb/jpeg", .vipsthumbnail, walls: [0.4, 0.5, 0.9], failures: ["exit status 1: vips"]),
            timing("bug-thumb/jpeg", .djpegFloor, walls: [0.1, 0.1, 0.1]),
        ]
        var score = BenchQuality.Score()
        score.ssim = [0.875, 0.625]
        score.psnr = [30, .infinity]
        score.sizeMismatches = 1
        let jobs = session.assemble(timings: timings, scores: ["bug-thumb/jpeg": ["vipsthumbnail": score]])
        let job = try #require(jobs.first)
        #expect(jobs.map(\.key) == ["bug-thumb/jpeg", "bug-thumb/png", "icons/demo"])
        #expect(jobs.map(\.kind) == [.resize, .resize, .catalogBuild])
        #expect(job.imagesAre == .inputs && job.sources == 2)
        #expect(job.images == 2 && job.megapixels == 12 + 0.48)
        let ours = try #require(job.thumbkit)
        #expect(ours.wallSeconds == BenchReport.Spread(min: 0.1, median: 0.2, max: 0.5))
        #expect(ours.imagesPerSecond == 2 / 0.2 && ours.megapixelsPerSecond == 12.48 / 0.2)
        #expect(ours.cpuSeconds == 0.4 && ours.peakRSSBytes == 500 && ours.speedRatio == 1)
        #expect(ours.ssim == nil && ours.scoredOutputs == 0)
        let vips = job.tools[1]
        #expect(vips.speedRatio == (2 / 0.2) / (2 / 0.5))
        #expect(vips.ssim == BenchReport.Quality(mean: 0.75, min: 0.625))
        // The identical output is counted, not averaged into an infinite PSNR.
        #expect(vips.psnr == BenchReport.Quality(mean: 30, min: 30) && vips.identicalOutputs == 1)
        #expect(vips.sizeMismatches == 1 && vips.scoredOutputs == 2)
        #expect(vips.failures == ["exit status 1: vips"])
        #expect(job.tools[2].role == .floor && job.tools[2].speedRatio == 10.0 / 20.0)
        // No timings for the PNG set: no tools, but the set's size is still known.
        #expect(jobs[1].tools.isEmpty && jobs[1].images == 1)
    }

    @Test func qualityIsScoredForToolsThatWriteOutputsOnly() {
        let session = session(tools: [.thumbkit, .pillow, .decodeFloor])
        let timings = [
            timing("bug-thumb/png", .thumbkit, walls: [1]), timing("bug-thumb/png", .pillow, walls: [1]),
            timing("bug-thumb/png", .decodeFloor, walls: [1]),
        ]
        let targets = session.qualityTargets(set: .png, timings: timings)
        #expect(targets.count == 1)
        #expect(targets.first?.outputFolders == ["thumbkit": "/w/thumbkit", "pillow": "/w/pillow"])
        #expect(targets.first?.outputExtension == "jpg")
        #expect(targets.first?.resize == ResizeOptions(width: 88, height: 88, mode: .fill))
    }

    @Test func aCatalogBuildCountsTheImagesItWroteAndTheSourcesItDecodedAndIsNotScored() throws {
        let session = session(tools: [.thumbkit, .vipsthumbnail, .decodeFloor], jobs: [.icons])
        // Peers and floors do not build catalogs, and the corpus does not matter.
        #expect(session.groups().map { $0.map(\.tool) } == [["thumbkit"]])
        let catalog = BenchDemoCatalog(database: "/w/demo-catalog/catalog.sqlite", sources: 29, megapixels: 12.5)
        let timings = [timing("icons/demo", .thumbkit, walls: [2, 0.5, 1])]
        #expect(session.qualityTargets(set: .jpeg, timings: timings).isEmpty)
        let jobs = session.assemble(
            timings: timings, scores: [:], catalog: catalog, builtImages: ["icons/demo": 164])
        let job = try #require(jobs.first)
        #expect(jobs.count == 1)
        #expect(job.key == "icons/demo" && job.kind == .catalogBuild && job.outputFormat == "mixed")
        #expect(job.images == 164 && job.imagesAre == .outputs && job.sources == 29 && job.megapixels == 12.5)
        let ours = try #require(job.thumbkit)
        #expect(ours.imagesPerSecond == 164 && ours.megapixelsPerSecond == 12.5)
        #expect(ours.wallSeconds == BenchReport.Spread(min: 0.5, median: 1, max: 2))
        #expect(ours.ssim == nil && ours.psnr == nil && ours.speedRatio == nil && ours.scoredOutputs == 0)
        // A catalog that could not be prepared gives no figures rather than made-up ones.
        let unprepared = try #require(session.assemble(timings: timings, scores: [:]).first)
        #expect(unprepared.images == 0 && unprepared.sources == 0 && unprepared.thumbkit?.imagesPerSecond == 0)
    }

    @Test func eachCatalogBuildRunStartsFromItsOwnCopyOfThePreparedDatabase() throws {
        let workspace = try TestWorkspace()
        let database = try workspace.write("prepared/catalog.sqlite", text: "pristine")
        let catalog = BenchDemoCatalog(database: database, sources: 1, megapixels: 1)
        let entry = try #require(
            session(tools: [.thumbkit], jobs: [.icons]).groups(catalog: .success(catalog)).first?.first)
        let run = workspace.path("run-1")
        try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true)
        try entry.prepare(run)
        #expect(try String(contentsOfFile: run + "/catalog.sqlite", encoding: .utf8) == "pristine")
        // Each run is checked from the build's --json summary.
        #expect(entry.verify(run, #"{"made": 188, "upToDate": 0, "removed": 0, "failed": 0, "failures": []}"#) == [])
        #expect(
            entry.verify(run, #"{"made": 164, "upToDate": 24, "removed": 0, "failed": 0, "failures": []}"#) == [
                "not a full build: 164 made, 24 up to date, 0 removed, 0 failed"
            ])
        // Without a prepared catalog, every run fails before anything starts.
        let unprepared = try #require(session(tools: [.thumbkit], jobs: [.icons]).groups().first?.first)
        #expect(throws: BenchError.self) { try unprepared.prepare(run) }
    }
}
