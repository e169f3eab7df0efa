// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalog
import ThumbKitQuality
import ThumbKitTestSupport

@testable import ThumbKitBench

/// The `icons` job end to end, through the built binary: a real (one-run) benchmark of the
/// catalog build against what `thumbkit build` makes of the demo catalog by hand.
struct BenchIconsJobTests {
    /// What `thumbkit demo`, `catalog import` and `build` make in `folder`: the build's summary
    /// and the image files it wrote.
    private static func referenceBuild(in folder: URL) throws -> (report: BuildReport, images: Int) {
        let demo = folder.appendingPathComponent("demo").path
        let database = folder.appendingPathComponent("catalog.sqlite").path
        let out = folder.appendingPathComponent("out").path
        for argv in [["demo", demo], ["catalog", "import", demo + "/catalog.json", "--catalog", database]] {
            let run = try TestBinary.run(argv)
            #expect(run.status == 0, "\(argv): \(run.stderr)")
        }
        let build = try TestBinary.run(["build", "--catalog", database, "--out", out, "-j", "2", "--json"])
        #expect(build.status == 0, "\(build.stderr)")
        let report = try JSONDecoder().decode(BuildReport.self, from: Data(build.stdout.utf8))
        let files = FileManager.default.enumerator(atPath: out)?.compactMap { $0 as? String } ?? []
        return (report, files.filter { $0.hasSuffix(".png") || $0.hasSuffix(".jpg") }.count)
    }

    /// Also: the run is saved in the history (by default `./thumbkit-bench.sqlite`), and a
    /// catalog in the same folder (`./thumbkit.sqlite`, where older releases saved it) is left
    /// byte for byte as it was.
    @Test(.tags(.realProcess)) func oneRunOfTheIconsJobReportsTheFullBuildOfTheDemoCatalogAndSavesIt() throws {
        let folder = try TestBinary.temporaryDirectory("bench-icons")
        defer { try? FileManager.default.removeItem(at: folder) }
        let reference = try Self.referenceBuild(in: folder.appendingPathComponent("reference"))
        #expect(reference.report.upToDate == 0 && reference.report.failed == 0 && reference.images > 0)

        // No corpus: the job prepares the demo catalog itself.
        let json = folder.appendingPathComponent("bench.json").path
        let html = folder.appendingPathComponent("bench.html").path
        let history = folder.appendingPathComponent("thumbkit-bench.sqlite").path
        let catalog = folder.appendingPathComponent("thumbkit.sqlite").path
        try FileManager.default.copyItem(
            atPath: folder.appendingPathComponent("reference/catalog.sqlite").path, toPath: catalog)
        let catalogBytes = try Data(contentsOf: URL(fileURLWithPath: catalog))
        let bench = try TestBinary.run(
            [
                "bench", "--corpus", folder.appendingPathComponent("no-corpus").path, "--job", "icons", "--runs", "1",
                "-j", "2", "--json", json, "--html", html,
            ], in: folder)
        #expect(bench.status == 0, "\(bench.stdout)\(bench.stderr)")
        #expect(bench.stdout.contains("Saved as run 1 in ./thumbkit-bench.sqlite"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalog)) == catalogBytes)
        #expect(!FileManager.default.fileExists(atPath: catalog + "-wal"))

        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let report = try decoder.decode(BenchReport.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(report.jobs.map(\.key) == ["icons/demo"])
        let job = try #require(report.jobs.first)
        #expect(job.kind == .catalogBuild && job.imagesAre == .outputs && job.outputFormat == "mixed")
        // Every image file the reference build wrote, and nothing else: the build's "made" also
        // counts the rows that point each of the 8 bugs at its shared strip at every scale.
        #expect(job.images > 0 && job.images == reference.images)
        #expect(reference.report.made == job.images + 8 * RatingStripStyle.standard.scales.count)
        #expect(job.sources == 8 + 18 + 1 + 2 && job.megapixels > 12 && job.megapixels < 12.5)
        #expect(job.tools.map(\.tool) == ["thumbkit"])
        let ours = try #require(job.thumbkit)
        #expect(ours.failures == [] && ours.imagesPerSecond > 0 && ours.megapixelsPerSecond > 0)
        #expect(ours.ssim == nil && ours.psnr == nil && ours.speedRatio == nil && ours.scoredOutputs == 0)

        #expect(bench.stdout.contains("icons · demo catalog · "))
        // The heading may wrap at the table width (100 columns off a terminal).
        let unwrapped = bench.stdout.replacingOccurrences(of: "\n  ", with: " ")
        #expect(unwrapped.contains("\(job.images) images written from 29 source pictures"))
        #expect(!bench.stdout.contains("SSIM"))
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("icons · demo catalog") && !page.contains("SSIM"))

        // Saved in the history like the other jobs.
        let listing = try TestBinary.run(["bench", "history", "--history", history, "--wide"])
        #expect(listing.status == 0)
        #expect(listing.stdout.split(separator: "\n").count == 2)
        let show = try TestBinary.run(["bench", "show", "1", "--history", history], environment: ["LC_ALL": "C"])
        #expect(show.status == 0)
        let row = try #require(show.stdout.split(separator: "\n").first { $0.hasPrefix("icons/demo") })
        #expect(row.contains("thumbkit"))
        let saved = try BenchHistoryStore(path: history).results()
        #expect(saved.map(\.job) == ["icons/demo"])
        #expect(saved.first.map { abs($0.imagesPerSecond - ours.imagesPerSecond) < 1e-9 } == true)
    }
}
