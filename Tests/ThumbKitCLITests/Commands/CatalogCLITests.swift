// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalog
import ThumbKitCatalogTestSupport

@testable import ThumbKitCLI

/// A temporary folder with a small catalog import file and real images, removed at the end.
final class CLIWorkspace {
    let root: String

    init() throws {
        root = (NSTemporaryDirectory() as NSString).appendingPathComponent("thumbkit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func path(_ relative: String) -> String { root + "/" + relative }

    /// A small PNG (or JPEG) whose colours depend on `seed`.
    @discardableResult
    func image(_ relative: String, side: Int = 48, seed: Int = 1, format: ImageFormat = .png) throws -> String {
        var buffer = PixelBuffer(width: side, height: side)
        for y in 0..<side {
            for x in 0..<side {
                buffer[x, y] = RGBA(UInt8((x * 5 + seed * 60) % 256), UInt8((y * 5) % 256), UInt8(seed * 30 % 256))
            }
        }
        let full = path(relative)
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(try ImageEncoders.encode(buffer, options: EncodeOptions(format: format))).write(
            to: URL(fileURLWithPath: full))
        return full
    }

    /// Writes `text` at `relative`.
    @discardableResult
    func write(_ relative: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path(relative)))
        return path(relative)
    }

    /// Two bugs (one with a bad rating), a food found by name, rating icons.
    func importFile() throws -> String {
        try image("img/potato.png", seed: 1)
        try image("img/beetle.jpg", seed: 2, format: .jpeg)
        try image("img/Chicken Marsala.png", seed: 3)
        try image("icons/empty.png", side: 16, seed: 4)
        try image("icons/full.png", side: 16, seed: 5)
        return try write(
            "catalog.json",
            """
            {"categories": ["Chicken"],
             "bugs": [{"title": "Potato Bug", "rating": 3.5, "image": "img/potato.png"},
                      {"title": "Bad", "rating": 7, "image": "img/potato.png"},
                      {"title": "Beetle", "rating": 1, "image": "img/beetle.jpg"}],
             "foods": [{"category": "Chicken", "name": "Chicken Marsala"}],
             "imagesDir": "img",
             "ratingIcons": {"empty": "icons/empty.png", "full": "icons/full.png"}}
            """)
    }
}

/// The catalog commands run in-process through `CLI.run`.
struct CatalogCLITests {
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String

        init(_ argv: [String], terminal: Bool = false) async {
            let out = TextOutput(capturingAsTerminal: terminal)
            let err = TextOutput()
            status = await CLI.run(argv, commands: ThumbKitCommands.all, stdout: out, stderr: err, environment: [:])
            stdout = out.text
            stderr = err.text
        }
    }

    /// `--catalog` and `--out` inside `workspace`.
    static func paths(_ workspace: CLIWorkspace) -> [String] {
        ["--catalog", workspace.path("c.sqlite"), "--out", workspace.path("out")]
    }

    @Test(arguments: CatalogBackend.all)
    func importBuildRateShowExportAndSiteWorkTogether(backend: CatalogBackend) async throws {
        let workspace = try CLIWorkspace()
        let scratch = try TestWorkspace()
        let file = try workspace.importFile()
        let catalog = ["--catalog", try backend.catalog(in: scratch)]
        let paths = catalog + ["--out", workspace.path("out")]

        let imported = await Run(["catalog", "import", file] + catalog)
        #expect(imported.status == 1)
        #expect(imported.stderr == "thumbkit: \(file): bugs[1]: rating 7 is not between 0 and 5 in steps of 0.5\n")
        #expect(imported.stdout.hasPrefix("bugs: 2 added, 0 updated, 0 unchanged; foods: 1 added"))

        let first = await Run(["build", "--json"] + paths)
        #expect(first.status == 0 && first.stderr.isEmpty)
        let report = try JSONDecoder().decode(BuildReport.self, from: Data(first.stdout.utf8))
        #expect(report.made == 2 * (5 + 3) + 4 + 33 && report.failed == 0)
        #expect(try WorkerProcessTests.planned(first.stdout))
        let second = await Run(["build"] + paths)
        #expect(second.stdout == "0 made, \(report.made) up to date, 0 removed, 0 failed\n")

        let rated = await Run(["catalog", "rate", "1", "4.5"] + paths)
        #expect(rated.status == 0)
        #expect(rated.stdout == "bug:1 Potato Bug: rating 4.5\noutputs: 3 made, 5 up to date, 3 removed, 0 failed\n")

        let shown = await Run(["catalog", "show", "1"] + catalog)
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("  rating   ★★★★½ 4.5  above average (all 2 bugs: min 1, average 2.75, max 4.5)"))
        #expect(shown.stdout.contains("  outputs  8 files, "))
        let colored = await Run(["catalog", "show", "2"] + catalog, terminal: true)
        #expect(colored.stdout.contains("\u{1B}[31mbelow average\u{1B}[0m"))

        let exported = await Run(["catalog", "export"] + catalog)
        let document = try JSONDecoder().decode(CatalogDocument.self, from: Data(exported.stdout.utf8))
        #expect(document.bugs.map(\.title) == ["Potato Bug", "Beetle"])
        #expect(document.bugs[0].outputs?.filter { $0.kind == .rating }.count == 3)

        let site = await Run(["site", workspace.path("site")] + paths)
        #expect(site.status == 0 && site.stdout.hasPrefix("site: \(workspace.path("site"))/index.html ("))
        #expect(FileManager.default.fileExists(atPath: workspace.path("site/bugs/1.html")))
    }

    @Test(arguments: CatalogBackend.all)
    func setImageRemakesTheOutputsAndRemovesTheOldFiles(backend: CatalogBackend) async throws {
        let workspace = try CLIWorkspace()
        let scratch = try TestWorkspace()
        let paths = ["--catalog", try backend.catalog(in: scratch), "--out", workspace.path("out")]
        _ = await Run(["catalog", "import", try workspace.importFile()] + paths.prefix(2))
        _ = await Run(["build"] + paths)
        let store = try scratch.store(backend: backend)
        let old = try store.outputs(for: .bug(2)).filter { $0.kind != .rating }
        let picture = try workspace.image("img/new.jpg", side: 30, seed: 9, format: .jpeg)
        let run = await Run(["catalog", "set-image", "bug:2", picture] + paths)
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("outputs: 5 made, 3 up to date, 5 removed, 0 failed\n"))
        for row in old { #expect(!FileManager.default.fileExists(atPath: workspace.path("out/" + row.path))) }
        #expect(try store.outputs(for: .bug(2)).count == 8)
    }

    @Test(arguments: [
        (["catalog", "rate", "1", "7"], "thumbkit: error: invalid rating '7': expected 0 to 5 in steps of 0.5\n"),
        (["catalog", "rate", "food:1", "3"], "thumbkit: error: only bugs have ratings, not food 1\n"),
        (["catalog", "rate", "bug", "3"], "thumbkit: error: invalid record 'bug': expected N, bug:N or food:N\n"),
    ])
    func badArgumentsAreUsageErrors(argv: [String], message: String) async throws {
        let workspace = try CLIWorkspace()
        let run = await Run(argv + ["--catalog", workspace.path("c.sqlite")])
        #expect(run.status == 2 && run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix(message))
    }

    @Test func aMissingCatalogOrRecordIsAFailureNotACrash() async throws {
        let workspace = try CLIWorkspace()
        let missing = await Run(["catalog", "list", "--catalog", workspace.path("none.sqlite")])
        #expect(missing.status == 1)
        #expect(
            missing.stderr.hasPrefix(
                "thumbkit: \(workspace.path("none.sqlite")): no such file or directory (no catalog here"))
        #expect(!FileManager.default.fileExists(atPath: workspace.path("none.sqlite")))
        _ = await Run(["catalog", "import", try workspace.importFile(), "--catalog", workspace.path("c.sqlite")])
        let noBug = await Run(["catalog", "show", "99", "--catalog", workspace.path("c.sqlite")])
        #expect(noBug.status == 1 && noBug.stderr == "thumbkit: bug 99: no bug with id 99\n")
        let notImage = await Run(
            [
                "catalog", "set-image", "1", try workspace.write("x.png", "text"), "--catalog",
                workspace.path("c.sqlite"),
            ])
        #expect(
            notImage.status == 1
                && notImage.stderr.hasPrefix(
                    "thumbkit: \(workspace.path("x.png")): not a PNG, JPEG, WebP, HEIC or AVIF file")
        )
    }

    @Test func aFailedRecordMakesTheBuildExitOneWithItsLineOnStderr() async throws {
        let workspace = try CLIWorkspace()
        _ = await Run(["catalog", "import", try workspace.importFile(), "--catalog", workspace.path("c.sqlite")])
        // Truncate a source behind the catalog's back.
        try workspace.write("img/beetle.jpg", "\u{FF}\u{D8}\u{FF}")
        let run = await Run(["build", "--json"] + Self.paths(workspace))
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("thumbkit: \(workspace.path("img/beetle.jpg")): "))
        let report = try JSONDecoder().decode(BuildReport.self, from: Data(run.stdout.utf8))
        #expect(report.failed == 1 && report.made > 0)
    }

    @Test func aPostgresCatalogIsShownWithoutItsPassword() async throws {
        let url = "postgres://thumbkit:hunter2-secret@127.0.0.1:1/catalog?password=also-secret&connect_timeout=2"
        let scratch = try TestWorkspace()
        for argv in [
            ["catalog", "list", "--catalog"], ["catalog", "import", "x.json", "--catalog"], ["build", "--catalog"],
            ["bench", "history", "--history", scratch.path("h.sqlite"), "--import-catalog"],
            ["catalog", "export", "--catalog"],
        ] {
            let run = await Run(argv + [url])
            #expect(run.status == 1, "\(argv): \(run.stderr)")
            #expect(run.stderr.contains("postgres://thumbkit:***@127.0.0.1:1/catalog?password=***"), "\(run.stderr)")
            #expect(!run.stderr.contains("secret") && !run.stdout.contains("secret"), "\(run.stderr)")
        }
        // The import opens the catalog first: a catalog it cannot read leaves no history behind.
        #expect(try scratch.listing().isEmpty)
        let help = await Run(["build", "--help"])
        #expect(help.stdout.contains("postgres://"))
    }

    /// Both directions of `catalog copy`, where both backends run.
    static let copyDirections = [(CatalogBackend.sqlite, CatalogBackend.postgres), (.postgres, .sqlite)].filter {
        CatalogBackend.all.contains($0.0) && CatalogBackend.all.contains($0.1)
    }

    @Test(arguments: copyDirections)
    func copyMovesAWholeCatalogAndABuildOfTheCopyMakesNothing(from: CatalogBackend, to: CatalogBackend) async throws {
        let workspace = try CLIWorkspace()
        let scratch = try TestWorkspace()
        let source = try from.catalog("a.sqlite", in: scratch)
        let target = try to.catalog("b.sqlite", in: scratch)
        let out = workspace.path("out")
        _ = await Run(["catalog", "import", try workspace.importFile(), "--catalog", source])
        let built = await Run(["build", "--json", "--catalog", source, "--out", out])
        let report = try JSONDecoder().decode(BuildReport.self, from: Data(built.stdout.utf8))
        #expect(built.status == 0 && report.made > 0)

        let copied = await Run(["catalog", "copy", source, target])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.hasSuffix(": 2 bugs, 1 food, \(report.made) output rows, 0 benchmark runs\n"))
        let again = await Run(["build", "--catalog", target, "--out", out])
        #expect(again.stdout == "0 made, \(report.made) up to date, 0 removed, 0 failed\n", "\(again.stderr)")
        let exports = [
            await Run(["catalog", "export", "--catalog", source]),
            await Run(["catalog", "export", "--catalog", target]),
        ]
        #expect(exports[0].status == 0 && exports[0].stdout == exports[1].stdout)
        let added = await Run(["catalog", "import", try workspace.importFile(), "--catalog", target])
        #expect(added.stdout.hasPrefix("bugs: 0 added"))

        let twice = await Run(["catalog", "copy", source, target])
        #expect(twice.status == 1 && twice.stderr.contains("the destination is not empty"))
    }
}
