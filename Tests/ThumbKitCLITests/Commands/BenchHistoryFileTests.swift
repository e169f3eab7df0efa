// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalog
import ThumbKitCatalogTestSupport

@testable import ThumbKitBench
@testable import ThumbKitCLI

/// Where `thumbkit bench` keeps its history (`--history`, a file of its own), what it refuses
/// there, and `bench history --import-catalog`, in-process through `CLI.run`.
struct BenchHistoryFileTests {
    /// Runs `thumbkit ARGV` in-process with a C locale and UTC (BenchReportTargetTests too).
    static func run(_ argv: [String]) async -> (status: Int32, stdout: String, stderr: String) {
        let out = TextOutput()
        let err = TextOutput()
        let status = await CLI.run(
            argv, commands: ThumbKitCommands.all, stdout: out, stderr: err, environment: ["LANG": "C", "TZ": "UTC"])
        return (status, out.text, err.text)
    }

    /// Two runs, three figures, saved in `catalog`'s old tables as an older release did.
    private static func keepOldRuns(in catalog: CatalogStore) throws {
        try catalog.write { tx in
            let tables = BenchHistoryTables(db: tx.db)
            for (seconds, speeds) in [(1_767_614_400.0, [20.0, 4]), (1_767_700_800, [21])] {
                try tables.addRun(
                    date: Date(timeIntervalSince1970: seconds), gitCommit: "abcdef0123456789", machine: "Old CPU",
                    note: "from the catalog",
                    results: speeds.map {
                        BenchResult(
                            job: "bug-thumb/jpeg", tool: $0 > 10 ? "thumbkit" : "pillow", imagesPerSecond: $0,
                            megapixelsPerSecond: $0 * 7, wallMedianSeconds: 40 / $0, peakRSSBytes: 1 << 20,
                            corpusDigest: "c", images: 40, timedRuns: 5)
                    })
            }
        }
    }

    /// The catalog's benchmark rows, records and version (and on SQLite its file's bytes).
    private static func snapshot(_ location: CatalogLocation) throws -> [String] {
        let store = try CatalogStore(location: location, readOnly: true, mustExist: true)
        var state = try store.read { tx in
            let tables = BenchHistoryTables(db: tx.db)
            return [
                "\(try tables.runs())", "\(try tables.results())", "\(try tx.bugs())", "\(try store.schemaVersion())",
            ]
        }
        if case .sqlite(let path) = location {
            state.append(try Data(contentsOf: URL(fileURLWithPath: path)).base64EncodedString())
        }
        return state
    }

    @Test(arguments: CatalogBackend.all)
    func importCopiesTheCatalogsRunsOnceAndLeavesTheCatalogAsItWas(backend: CatalogBackend) async throws {
        let workspace = try TestWorkspace()
        do {
            let catalog = try workspace.store(backend: backend)
            try catalog.write { try $0.addBug(title: "Kept") }
            try Self.keepOldRuns(in: catalog)
        }
        let catalog = try backend.catalog(in: workspace)
        let before = try Self.snapshot(try backend.location(in: workspace))
        let history = workspace.path("thumbkit-bench.sqlite")

        let first = await Self.run(["bench", "history", "--import-catalog", catalog, "--history", history])
        #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Copied 2 runs (3 figures) from "), "\(first.stdout)")
        #expect(first.stdout.hasSuffix(" into \(history); 0 runs were there already.\n"), "\(first.stdout)")
        let second = await Self.run(["bench", "history", "--import-catalog", catalog, "--history", history])
        #expect(second.status == 0)
        #expect(second.stdout.hasPrefix("Copied 0 runs (0 figures) from "), "\(second.stdout)")
        #expect(second.stdout.hasSuffix("; 2 runs were there already.\n"), "\(second.stdout)")
        #expect(try Self.snapshot(try backend.location(in: workspace)) == before)

        let listing = await Self.run(["bench", "history", "--history", history, "--wide"])
        let lines = listing.stdout.split(separator: "\n")
        #expect(lines.count == 3)  // the time has a narrow no-break space before PM (ICU, en_US_POSIX)
        #expect(
            lines.dropFirst() == [
                "  2  Jan 6, 2026 at 12:00\u{202F}PM  abcdef012345        1  Old CPU  from the catalog",
                "  1  Jan 5, 2026 at 12:00\u{202F}PM  abcdef012345        2  Old CPU  from the catalog",
            ], "\(lines)")
        let show = await Self.run(["bench", "show", "1", "--history", history])
        #expect(show.status == 0 && show.stdout.contains("pillow"), "\(show.stderr)")
    }

    @Test func importFromAMissingCatalogCreatesNeitherFile() async throws {
        let workspace = try TestWorkspace()
        let missing = workspace.path("none.sqlite")
        let result = await Self.run(
            ["bench", "history", "--import-catalog", missing, "--history", workspace.path("h.sqlite")])
        #expect(result.status == 1)
        #expect(result.stderr == "thumbkit: \(missing): no such file or directory (no catalog here)\n")
        #expect(try workspace.listing().isEmpty)
    }

    /// `--history` pointed at a picture, a text file or a catalog: every bench command that
    /// opens the history refuses it in one line, before running anything, and leaves it be.
    @Test(arguments: ["photo.jpg", "notes.txt", "thumbkit.sqlite"])
    func aHistoryThatIsAnotherFileIsRefusedAndLeftByteIdentical(name: String) async throws {
        let workspace = try TestWorkspace()
        let catalog = workspace.path("catalog.sqlite")
        do {
            let store = try CatalogStore(path: catalog)
            try Self.keepOldRuns(in: store)
        }
        let path: String
        switch name {
        case "photo.jpg": path = try workspace.jpeg(name, seed: 7)
        case "notes.txt": path = try workspace.write(name, text: "Dear diary,\nthe benchmark ran.\n")
        default:
            path = workspace.path(name)
            try FileManager.default.copyItem(atPath: catalog, toPath: path)
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let listing = try workspace.listingApartFromEmptyWAL()
        for argv in [
            ["bench", "--job", "icons", "--runs", "1", "--history", path],
            ["bench", "history", "--history", path],
            ["bench", "show", "1", "--history", path],
            ["bench", "history", "--import-catalog", catalog, "--history", path],
        ] {
            let result = await Self.run(argv)
            #expect(result.status == 1, "\(argv)")
            #expect(result.stdout.isEmpty, "\(argv): \(result.stdout)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("thumbkit: \(path): "), "\(argv): \(result.stderr)")
            #expect(
                result.stderr.contains(": not a thumbkit benchmark history (")
                    || result.stderr.contains(
                        ": cannot be read as a thumbkit benchmark history (file is not a database)"),
                "\(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "\(argv)")
            #expect(try workspace.listingApartFromEmptyWAL() == listing, "\(argv)")
        }
    }
}
