// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalog
import ThumbKitCatalogTestSupport

@testable import ThumbKitBench
@testable import ThumbKitCLI

/// `bench run --json FILE` and `--html FILE` never replace the history the run saves into, a
/// catalog or any other SQLite file, or a picture of the corpus, however they are named; each
/// is refused (exit 2) before anything runs, and left byte-identical.
struct BenchReportTargetTests {
    private func run(_ argv: [String]) async -> (status: Int32, stdout: String, stderr: String) {
        await BenchHistoryFileTests.run(argv)
    }

    /// A workspace with a history holding one run, a catalog, and a corpus of two JPEGs.
    private func fixture() throws -> (TestWorkspace, history: String, catalog: String, corpus: String, picture: String)
    {
        let workspace = try TestWorkspace()
        let history = workspace.path("thumbkit-bench.sqlite")
        try BenchHistoryStore(path: history).addRun(
            date: Date(timeIntervalSince1970: 1_767_614_400), gitCommit: "abc", machine: "m", note: "kept",
            results: [
                BenchResult(
                    job: "bug-thumb/jpeg", tool: "thumbkit", imagesPerSecond: 20, megapixelsPerSecond: 140,
                    wallMedianSeconds: 2, peakRSSBytes: 1 << 20, corpusDigest: "c", images: 40, timedRuns: 5)
            ])
        let catalog = workspace.path("catalog.sqlite")
        try CatalogStore(path: catalog).write { try $0.addBug(title: "Kept") }
        let picture = try workspace.jpeg("corpus/jpeg/a.jpg", seed: 3)
        try workspace.jpeg("corpus/jpeg/b.jpg", seed: 4)
        return (workspace, history, catalog, workspace.path("corpus"), picture)
    }

    @Test func neitherReportMayReplaceTheHistoryACatalogOrAPictureOfTheCorpus() async throws {
        let (workspace, history, catalog, corpus, picture) = try fixture()
        try FileManager.default.createDirectory(atPath: workspace.path("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: workspace.path("history-link"), withDestinationPath: history)
        try FileManager.default.linkItem(atPath: history, toPath: workspace.path("history-hardlink"))
        try FileManager.default.createSymbolicLink(
            atPath: workspace.path("picture-link.json"), withDestinationPath: picture)
        try FileManager.default.linkItem(atPath: picture, toPath: workspace.path("picture-hardlink.html"))
        try FileManager.default.copyItem(atPath: catalog, toPath: workspace.path("catalog-copy.json"))
        let protected = [history, catalog, picture, workspace.path("catalog-copy.json")]
        let before = try protected.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let cases: [(target: String, because: String)] = [
            (history, "the benchmark history"),
            (workspace.path("sub/../thumbkit-bench.sqlite"), "the benchmark history"),
            (workspace.path("history-link"), "the benchmark history"),
            (workspace.path("history-hardlink"), "the benchmark history"),
            (history + "-wal", "the benchmark history"),
            (catalog, "an SQLite database"),
            (workspace.path("catalog-copy.json"), "an SQLite database"),
            (picture, "a picture of the corpus"),
            (workspace.path("corpus/jpeg/../jpeg/a.jpg"), "a picture of the corpus"),
            (workspace.path("picture-link.json"), "a picture of the corpus"),
            (workspace.path("picture-hardlink.html"), "a picture of the corpus"),
        ]
        for (target, because) in cases {
            for option in ["--json", "--html"] {
                let argv = [
                    "bench", "--corpus", corpus, "--job", "sharp-jpeg", "--runs", "1", "--history", history, option,
                    target,
                ]
                let result = await run(argv)
                #expect(result.status == 2, "\(option) \(target): \(result.stderr)")
                #expect(result.stderr.contains("it is \(because)"), "\(option) \(target): \(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
        }
        #expect(try protected.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
        #expect(try BenchHistoryStore(path: history).runs().map(\.note) == ["kept"])
    }

    @Test func aHistoryNotYetMadeAndTheOtherReportAreRefusedToo() async throws {
        let (workspace, _, _, corpus, _) = try fixture()
        let fresh = workspace.path("new-history.sqlite")
        for argv in [
            ["--history", fresh, "--json", workspace.path("sub/../new-history.sqlite")],
            ["--history", fresh, "--html", fresh],
            ["--no-history", "--json", workspace.path("r.out"), "--html", workspace.path("./r.out")],
        ] {
            try FileManager.default.createDirectory(atPath: workspace.path("sub"), withIntermediateDirectories: true)
            let result = await run(
                ["bench", "--corpus", corpus, "--job", "sharp-jpeg", "--runs", "1"] + argv)
            #expect(result.status == 2, "\(argv): \(result.stderr)")
            #expect(result.stderr.hasPrefix("thumbkit: error: invalid value"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: fresh), "\(argv)")
            #expect(!FileManager.default.fileExists(atPath: workspace.path("r.out")), "\(argv)")
        }
    }

    /// What may be replaced is: an earlier report, whole (a temporary file renamed over it),
    /// with nothing else left in its folder.
    @Test func anEarlierReportIsReplacedWhole() async throws {
        let (workspace, _, _, corpus, _) = try fixture()
        let json = try workspace.write("reports/r.json", text: "an earlier report\n")
        let html = workspace.path("reports/r.html")
        let result = await run([
            "bench", "--corpus", corpus, "--job", "sharp-jpeg", "--runs", "1", "--no-history", "--json", json,
            "--html", html,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(report is [String: Any])
        #expect(try String(contentsOfFile: html, encoding: .utf8).contains("<svg"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: workspace.path("reports")).sorted() == [
                "r.html", "r.json",
            ])
    }
}
