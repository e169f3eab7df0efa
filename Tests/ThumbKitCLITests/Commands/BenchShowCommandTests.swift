// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalog

@testable import ThumbKitBench
@testable import ThumbKitCLI

struct BenchShowCommandTests {
    /// A benchmark history with three runs: January 10 (10 images/s), January 20 (30), February 2 (40),
    /// all in 2026 at noon UTC.
    private final class History {
        let folder = NSTemporaryDirectory() + "bench-show-\(UUID().uuidString)"
        var path: String { folder + "/history.sqlite" }
        var ids: [Int] = []

        init() throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let store = try BenchHistoryStore(path: path)
            let noon10January = 1_768_046_400.0
            for (day, speed) in [(0.0, 10.0), (10, 30), (23, 40)] {
                let result = BenchResult(
                    job: "bug-thumb/jpeg", tool: "thumbkit", imagesPerSecond: speed, megapixelsPerSecond: speed * 7,
                    wallMedianSeconds: 40 / speed, peakRSSBytes: 1 << 20, corpusDigest: "three", images: 3,
                    timedRuns: 5)
                let run = try store.addRun(
                    date: Date(timeIntervalSince1970: noon10January + day * 86_400), gitCommit: "abcdef0123456789",
                    machine: "Test CPU, 2 cores", note: speed == 30 ? "faster" : "", results: [result])
                ids.append(run.id)
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) }
    }

    private func run(_ argv: [String], environment: [String: String], terminal: Bool = false) async -> (
        Int32, String, String
    ) {
        let out = TextOutput(capturingAsTerminal: terminal)
        let err = TextOutput()
        let status = await CLI.run(
            argv, commands: ThumbKitCommands.all, stdout: out, stderr: err, environment: environment)
        return (status, out.text, err.text)
    }

    @Test func showComparesTheRunWithItsMonthInTheUsersLocale() async throws {
        let history = try History()
        let (status, out, err) = await run(
            ["bench", "show", String(history.ids[1]), "--history", history.path],
            environment: ["LANG": "de_DE.UTF-8", "TZ": "UTC"])
        #expect(status == 0 && err.isEmpty)
        #expect(out.contains("Run \(history.ids[1]) · 20.01.2026, 12:00 · commit abcdef012345"))
        #expect(out.contains("Note: faster"))
        #expect(out.contains("Against the runs of Januar 2026 on the same corpus"))
        let row = try #require(out.split(separator: "\n").first { $0.hasPrefix("bug-thumb/jpeg") })
        let cells = row.split(separator: " ").map(String.init)
        // images/s, runs, month min, avg, max, loss from best, gain over worst: German decimal commas.
        #expect(cells[1] == "thumbkit")
        #expect(Array(cells[2...6]) == ["30,0", "2", "10,0", "20,0", "30,0"])
        #expect(cells.count == 9 && cells[7] == "0,0\u{00A0}%" && cells[8] == "+200,0\u{00A0}%")
        #expect(!out.contains("\u{1B}["))  // not a terminal: no colour
    }

    @Test func englishUsesPointsAndTheLastVariableSetWins() async throws {
        let history = try History()
        let (_, out, _) = await run(
            ["bench", "show", String(history.ids[0]), "--history", history.path],
            environment: ["LANG": "de_DE.UTF-8", "LC_ALL": "en_US.UTF-8", "TZ": "UTC"])
        #expect(out.contains("Against the runs of January 2026 on the same corpus"))
        let row = try #require(out.split(separator: "\n").first { $0.hasPrefix("bug-thumb/jpeg") })
        #expect(row.contains("10.0") && row.contains("20.0") && row.contains("-66.7%") && row.contains(" 0.0%"))
    }

    @Test func onATerminalBetterThanTheMonthlyAverageIsGreenAndWorseIsRed() async throws {
        let history = try History()
        let environment = ["LANG": "en_US.UTF-8", "TZ": "UTC"]
        let better = await run(
            ["bench", "show", String(history.ids[1]), "--history", history.path], environment: environment,
            terminal: true)
        #expect(better.1.contains("\u{1B}[32m"))
        #expect(!better.1.contains("\u{1B}[31m"))
        let worse = await run(
            ["bench", "show", String(history.ids[0]), "--history", history.path], environment: environment,
            terminal: true)
        #expect(worse.1.contains("\u{1B}[31m"))
        let plain = await run(
            ["bench", "show", String(history.ids[0]), "--history", history.path],
            environment: environment.merging(["NO_COLOR": "1"]) { $1 }, terminal: true)
        #expect(!plain.1.contains("\u{1B}["))
    }

    @Test func historyListsRunsNewestFirst() async throws {
        let history = try History()
        let (status, out, _) = await run(
            ["bench", "history", "--history", history.path], environment: ["LANG": "C", "TZ": "UTC"])
        #expect(status == 0)
        let lines = out.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("run  date"))
        let ids = lines.dropFirst().map { Int($0.split(separator: " ").first ?? "") }
        #expect(ids == history.ids.reversed().map { Optional($0) })
        #expect(lines[2].contains("faster") && lines[2].contains("abcdef012345"))
    }

    @Test func anUnknownRunOrHistoryIsOneLineAndExitOne() async throws {
        let history = try History()
        let unknown = await run(["bench", "show", "99", "--history", history.path], environment: [:])
        #expect(unknown.0 == 1 && unknown.1.isEmpty)
        #expect(unknown.2 == "thumbkit: run 99: no such benchmark run (see 'thumbkit bench history')\n")
        let missing = history.folder + "/none.sqlite"
        let none = await run(["bench", "history", "--history", missing], environment: [:])
        #expect(none.0 == 1)
        #expect(
            none.2
                == "thumbkit: \(missing): no benchmark history here (a 'thumbkit bench' run creates it; "
                + "'thumbkit bench history --import-catalog CATALOG' copies the runs an older thumbkit kept in a catalog)\n"
        )
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test(arguments: [
        (["LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"], "fr_FR"),
        (["LC_NUMERIC": "de_CH.UTF-8@euro", "LANG": "en_GB.UTF-8"], "de_CH"),
        (["LANG": "C"], "en_US_POSIX"),
        (["LANG": "POSIX", "LC_ALL": ""], "en_US_POSIX"),
    ])
    func theLocaleComesFromTheEnvironment(environment: [String: String], identifier: String) {
        #expect(BenchShowCommand.locale(for: "LC_NUMERIC", environment: environment).identifier == identifier)
    }

    @Test func aRunOnAnotherCorpusIsNotComparedAndTheRowSaysFromHowManyRuns() async throws {
        let history = try History()
        let store = try BenchHistoryStore(path: history.path)
        let small = try store.addRun(
            date: Date(timeIntervalSince1970: 1_768_046_400 + 86_400), gitCommit: "0123456789abcdef",
            machine: "Test CPU, 2 cores",
            results: [
                BenchResult(
                    job: "bug-thumb/jpeg", tool: "thumbkit", imagesPerSecond: 14, megapixelsPerSecond: 90,
                    wallMedianSeconds: 1 / 14, peakRSSBytes: 1 << 20, corpusDigest: "one", images: 1, timedRuns: 5)
            ])
        let (status, out, _) = await run(
            ["bench", "show", String(small.id), "--history", history.path], environment: ["LANG": "C", "TZ": "UTC"])
        #expect(status == 0)
        let row = try #require(out.split(separator: "\n").first { $0.hasPrefix("bug-thumb/jpeg") })
        let cells = row.split(separator: " ").map(String.init)
        // Alone with itself: 1 run, nothing lost from the best (it was "-53.3%" against 30 images/s).
        #expect(cells[3] == "1" && cells[7] == "0.0%")
        let joined = out.replacingOccurrences(of: "\n  ", with: " ")
        #expect(
            joined.contains("2 other runs of the month measured another corpus, image count or number of timed runs"))
        // The January runs on the 3-image corpus still see only each other.
        let (_, january, _) = await run(
            ["bench", "show", String(history.ids[1]), "--history", history.path],
            environment: ["LANG": "C", "TZ": "UTC"])
        let january20 = try #require(january.split(separator: "\n").first { $0.hasPrefix("bug-thumb/jpeg") })
        #expect(january20.split(separator: " ")[3] == "2")
    }

    @Test func onANarrowTerminalShowAndHistoryFitAndWideShowsEverything() async throws {
        let history = try History()
        let store = try BenchHistoryStore(path: history.path)
        try store.addRun(
            date: Date(timeIntervalSince1970: 1_768_046_400), gitCommit: "0123456789abcdef",
            machine:
                "AMD EPYC 7B13 64-Core Processor, 2 cores, Debian GNU/Linux 12 (bookworm), Linux 6.1.0-18-cloud-amd64",
            note: "a long note about what changed in this run", results: [])
        let environment = ["LANG": "C", "TZ": "UTC", "COLUMNS": "70", "NO_COLOR": "1"]
        let show = await run(
            ["bench", "show", String(history.ids[1]), "--history", history.path], environment: environment,
            terminal: true)
        let showLines = show.1.split(separator: "\n")
        #expect(showLines.allSatisfy { $0.count <= 70 }, "\(show.1)")
        #expect(show.1.contains("--wide"))
        #expect(!showLines.contains { $0.contains("month avg") })
        let wide = await run(
            ["bench", "show", String(history.ids[1]), "--history", history.path, "--wide"], environment: environment,
            terminal: true)
        #expect(wide.1.contains("month avg"))

        let list = await run(["bench", "history", "--history", history.path], environment: environment, terminal: true)
        #expect(list.0 == 0)
        #expect(list.1.split(separator: "\n").allSatisfy { $0.count <= 70 }, "\(list.1)")
        #expect(list.1.contains("…") && !list.1.contains("cloud-amd64"))
        let whole = await run(
            ["bench", "history", "--history", history.path, "--wide"], environment: environment, terminal: true)
        #expect(whole.1.contains("Linux 6.1.0-18-cloud-amd64  a long note"))
    }
}
