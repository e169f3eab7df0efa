// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalog
import ThumbKitTestSupport

@testable import ThumbKitBench
@testable import ThumbKitCLI

struct BenchCommandTests {
    /// What a bench command line asks for: the subcommand reached and its checked values.
    enum Action: Sendable, Hashable {
        case run(BenchRunCommand.Settings)
        case history(history: String, wide: Bool, importCatalog: String?)
        case show(runID: Int, history: String, wide: Bool)
        case decode(job: BenchJob, files: [String], parallel: Int)
    }

    /// Parses a `thumbkit` command line and reads what its bench subcommand's `run` would.
    private static func action(_ argv: [String]) throws -> Action {
        let parser = ArgumentParser(root: CLI.rootSpec(commands: ThumbKitCommands.all))
        guard case .run(let parsed) = try parser.parse(argv) else {
            Issue.record("\(argv) asked for help")
            throw UsageError.validationFailed("help")
        }
        switch parsed.commandPath {
        case ["bench", "run"]: return .run(try BenchRunCommand.settings(parsed))
        case ["bench", "history"]:
            return .history(
                history: try parsed[BenchCommand.history], wide: try parsed[BenchCommand.wide],
                importCatalog: try parsed[BenchHistoryCommand.importCatalog])
        case ["bench", "show"]:
            return .show(
                runID: try BenchShowCommand.runID(parsed), history: try parsed[BenchCommand.history],
                wide: try parsed[BenchCommand.wide])
        case ["bench", "decode"]:
            let request = try BenchDecodeCommand.request(parsed)
            return .decode(job: request.job, files: request.files, parallel: request.parallel)
        default:
            Issue.record("\(argv) reached \(parsed.commandPath)")
            throw UsageError.validationFailed("path")
        }
    }

    private static func settings(
        corpus: String = "bench-corpus", jobs: [BenchJob] = BenchJob.enabled, runs: Int = 5, parallel: Int? = nil,
        peers: Bool = false, limit: Bool = false, linear: Bool = false, json: String? = nil, html: String? = nil,
        history: String = "./thumbkit-bench.sqlite", note: String = "", save: Bool = true, pillowScript: String? = nil
    ) -> Action {
        .run(
            BenchRunCommand.Settings(
                corpus: corpus, jobs: jobs, runs: runs,
                parallel: parallel ?? ProcessInfo.processInfo.activeProcessorCount, peers: peers, limit: limit,
                linear: linear, jsonPath: json, htmlPath: html, historyPath: history, note: note, saveHistory: save,
                pillowScript: pillowScript))
    }

    @Test(arguments: [
        (["bench"], settings()),
        (["bench", "run"], settings()),
        (
            [
                "bench", "--corpus", "/c", "--job", "sharp-jpeg", "--job", "bug-thumb", "--job", "sharp-jpeg", "--runs",
                "3",
                "-j", "4", "--peers", "--limit", "--linear", "--json", "r.json", "--html", "r.html", "--history",
                "h.sqlite",
                "--note", "after fix", "--no-history",
            ],
            settings(
                corpus: "/c", jobs: [.sharpJPEG, .bugThumb], runs: 3, parallel: 4, peers: true, limit: true,
                linear: true,
                json: "r.json", html: "r.html", history: "h.sqlite", note: "after fix", save: false)
        ),
        (["bench", "--job", "icons", "--runs", "1"], settings(jobs: [.icons], runs: 1)),
        (["bench", "--pillow-script", "/p/pillow_thumb.py"], settings(pillowScript: "/p/pillow_thumb.py")),
        (["bench", "run", "--runs", "2", "--peers"], settings(runs: 2, peers: true)),
        (["bench", "history"], .history(history: "./thumbkit-bench.sqlite", wide: false, importCatalog: nil)),
        (
            ["bench", "history", "--history", "h.sqlite"],
            .history(history: "h.sqlite", wide: false, importCatalog: nil)
        ),
        (
            ["bench", "history", "--import-catalog", "postgres://db/x", "--history", "h.sqlite"],
            .history(history: "h.sqlite", wide: false, importCatalog: "postgres://db/x")
        ),
        (["bench", "show", "7"], .show(runID: 7, history: "./thumbkit-bench.sqlite", wide: false)),
        (["bench", "show", "--history", "h.sqlite", "12"], .show(runID: 12, history: "h.sqlite", wide: false)),
        (
            ["bench", "decode", "--job", "fit-256", "-j", "3", "a.jpg", "b.png"],
            .decode(job: .fit256, files: ["a.jpg", "b.png"], parallel: 3)
        ),
    ])
    func commandLinesSelectTheirAction(argv: [String], expected: Action) throws {
        #expect(try Self.action(argv) == expected)
    }

    @Test(arguments: [
        (
            ["bench", "--job", "nope"],
            UsageError.invalidValue(
                option: "--job", value: "nope",
                reason: "expected one of bug-thumb, fit-256, webp-256, sharp-jpeg, icons")
        ),
        (
            ["bench", "--runs", "0"],
            .invalidValue(option: "--runs", value: "0", reason: "expected an integer from 1 to 1000")
        ),
        (
            ["bench", "-j", "0"],
            .invalidValue(option: "--jobs", value: "0", reason: "expected an integer from 1 to 256")
        ),
        (["bench", "run", "extra"], .unexpectedArgument("extra")),
        (["bench", "frobnicate"], .unknownCommand("frobnicate")),
        (["bench", "histroy"], .unknownCommand("histroy")),
        (["bench", "history", "--peers"], .unknownOption("--peers")),
        (["bench", "history", "3"], .unexpectedArgument("3")),
        (["bench", "show"], .missingArgument("run")),
        (
            ["bench", "show", "x"],
            .invalidValue(option: "<run>", value: "x", reason: "expected a run id from 'thumbkit bench history'")
        ),
        (["bench", "show", "1", "2"], .unexpectedArgument("2")),
        (["bench", "show", "1", "--runs", "2"], .unknownOption("--runs")),
        (["bench", "history", "--pillow-script", "p.py"], .unknownOption("--pillow-script")),
        // The history is no longer kept in a catalog.
        (["bench", "history", "--catalog", "c.sqlite"], .unknownOption("--catalog")),
        (["bench", "--catalog", "c.sqlite"], .unknownOption("--catalog")),
        (["bench", "show", "1", "--import-catalog", "c.sqlite"], .unknownOption("--import-catalog")),
        (["bench", "decode", "a.jpg"], .validationFailed("'bench decode' needs --job")),
        (["bench", "decode", "--job", "bug-thumb"], .missingArgument("file")),
        (["bench", "decode", "--job", "bug-thumb", "--peers", "a.jpg"], .unknownOption("--peers")),
    ])
    func wrongCommandLinesAreUsageErrors(argv: [String], expected: UsageError) {
        #expect(throws: expected) { try Self.action(argv) }
    }

    @Test func aMissingCorpusIsOneClearLineAndExitOne() async throws {
        let out = TextOutput()
        let err = TextOutput()
        let status = await CLI.run(
            ["bench", "--corpus", "/nonexistent/corpus", "--no-history"], commands: ThumbKitCommands.all, stdout: out,
            stderr: err)
        #expect(status == 1)
        #expect(out.text.isEmpty)
        #expect(err.text == "thumbkit: /nonexistent/corpus: no such folder (build one with scripts/bench-corpus DIR)\n")
    }

    @Test func anUnreadablePillowScriptIsAUsageErrorBeforeAnythingRuns() async throws {
        let err = TextOutput()
        let status = await CLI.run(
            ["bench", "--corpus", "/nonexistent/corpus", "--no-history", "--pillow-script", "/nonexistent/p.py"],
            commands: ThumbKitCommands.all, stdout: TextOutput(), stderr: err)
        #expect(status == 2)
        #expect(
            err.text.hasPrefix(
                "thumbkit: error: invalid value '/nonexistent/p.py' for option '--pillow-script': cannot read it"))
    }

    /// The default is found from the binary's own place, not from the current folder: for the
    /// test build (`<checkout>/.build/<triple>/<configuration>/thumbkit`), the checkout's script.
    @Test func thePillowScriptIsFoundBesideTheBinaryInTwoFixedPlaces() throws {
        #expect(
            BenchPrograms.defaultPillowScriptCandidates(executable: "/usr/local/bin/thumbkit") == [
                "/usr/local/share/thumbkit/pillow_thumb.py", "/scripts/peers/pillow_thumb.py",
            ])
        #expect(
            BenchPrograms.defaultPillowScriptCandidates(
                executable: "/src/tk/.build/x86_64-unknown-linux-gnu/release/thumbkit"
            )
            .last == "/src/tk/scripts/peers/pillow_thumb.py")
        let checkout = TestImages.packageRoot.path
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(BenchPrograms.defaultPillowScript(executable: binary) == checkout + "/scripts/peers/pillow_thumb.py")
        #expect(BenchPrograms.defaultPillowScript(executable: "/nonexistent/bin/thumbkit") == nil)
    }

    @Test func decodeDecodesEachFileAndReportsTheOnesItCannot() async throws {
        let folder = NSTemporaryDirectory() + "bench-decode-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let good = try CompareCommandTests.writePNG(
            .init(width: 20, height: 10, fill: .white), in: folder, name: "good.png")
        let bad = folder + "/bad.png"
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: bad))
        let err = TextOutput()
        let status = await CLI.run(
            ["bench", "decode", "--job", "bug-thumb", good, bad], commands: ThumbKitCommands.all, stdout: TextOutput(),
            stderr: err)
        #expect(status == 1)
        #expect(err.text == "thumbkit: \(bad): not a PNG, JPEG, WebP, HEIC or AVIF file\n")
    }
}
