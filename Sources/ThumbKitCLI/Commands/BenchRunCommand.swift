// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitBench
import ThumbKitCatalog
import ThumbKitQuality

/// `thumbkit bench [run] [options]`: runs the benchmark, prints the table, writes `--json` and
/// `--html`, and saves the run in the benchmark history (`--history`).
enum BenchRunCommand: Command {
    static let spec = CommandSpec(
        name: "run", abstract: "Run the benchmark.",
        discussion: """
            Runs each job over the corpus (DIR/jpeg/*.jpg and DIR/png/*.png, as scripts/bench-corpus \
            builds it) --runs times after a warm-up, taking turns between tools, and prints per job: \
            images/s, input MP/s, wall seconds (min/median/max), CPU seconds, peak RSS, and SSIM and \
            PSNR of every output against a Lanczos3 reference of the full-resolution picture, cut with \
            the tool's own crop geometry (exact or whole-pixel). With --peers the same jobs run with \
            vipsthumbnail, ImageMagick (with and without its JPEG size hint), GraphicsMagick and Pillow \
            when found (scripts/install-peers installs them), and the table shows thumbkit's speed \
            divided by theirs. With --limit it also times decoding alone (djpeg and thumbkit's own \
            decode) at the scale thumbkit picks. The icons job is thumbkit alone: each run is a full \
            'thumbkit build' of the demo catalog (prepared once, untimed, in a private database \
            copied fresh for every run; no corpus needed); its images are the image files written \
            and its MP the source pictures decoded, and it is not scored. Each run is saved in the \
            benchmark history (--history).

            Jobs: \(BenchJob.all.map { "\($0.name): \($0.summary)\($0.isEnabled ? "" : " (not available yet)")" }.joined(separator: "; ")).
            """,
        options: [
            corpus, job, runs, BenchCommand.jobs, peers, limit, linear, json, html, BenchCommand.history, note,
            noHistory, BenchCommand.wide, pillowScript,
        ])

    static let corpus: OptionKey<String> = .text(
        "corpus", valueName: "dir", default: "bench-corpus", help: "Benchmark corpus folder.")
    /// `--job NAME`, repeatable: each a job that can run here, without repeats.
    static let job = OptionKey<[BenchJob]>(
        spec: .repeated(
            "job", valueName: "name", help: "Job to run (repeatable; default: every available job).",
            allowedValues: BenchJob.all.map(\.name))
    ) { arguments throws(UsageError) in
        var jobs: [BenchJob] = []
        for name in arguments.values("job") {
            guard let job = BenchJob.named(name) else {
                throw .invalidValue(option: "--job", value: name, reason: "no such job")
            }
            if let reason = job.unavailableReason { throw .invalidValue(option: "--job", value: name, reason: reason) }
            if !jobs.contains(job) { jobs.append(job) }
        }
        return jobs
    }
    static let runs: OptionKey<Int> = .integer(
        "runs", in: 1...1000, default: 5, help: "Timed runs per tool, after one warm-up.")
    static let peers: OptionKey<Bool> = .flag("peers", help: "Also time the peer tools found on PATH.")
    static let limit: OptionKey<Bool> = .flag("limit", help: "Also time decoding alone (the floor) for comparison.")
    static let linear: OptionKey<Bool> = .flag("linear", help: "Also score against a linear-light reference.")
    /// `--json FILE` (a file here, not stdout).
    static let json: OptionKey<String?> = .text(
        "json", valueName: "file",
        help: "Write every figure as JSON to this file (replaced whole; the history, an SQLite file or a picture "
            + "of the corpus is refused).")
    static let html: OptionKey<String?> = .text(
        "html", valueName: "file",
        help: "Write an HTML page with bar charts to this file (replaced whole; refused as --json's are).")
    static let note: OptionKey<String?> = .text("note", valueName: "text", help: "A note saved with the run.")
    static let noHistory: OptionKey<Bool> = .flag("no-history", help: "Do not save the run in the history.")
    static let pillowScript: OptionKey<String?> = .text(
        "pillow-script", valueName: "file",
        defaultHelp:
            "../share/thumbkit/ or, in a build folder, the checkout's scripts/peers/, from the binary's folder",
        help: "Pillow's driver, scripts/peers/pillow_thumb.py (for --peers).")

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        try run(try settings(arguments), context: context)
    }

    /// The run's options, checked.
    struct Settings: Sendable, Hashable {
        var corpus: String
        var jobs: [BenchJob]
        var runs: Int
        var parallel: Int
        var peers: Bool
        var limit: Bool
        var linear: Bool
        var jsonPath: String?
        var htmlPath: String?
        /// `--history`: the benchmark history's file.
        var historyPath: String
        var note: String
        var saveHistory: Bool
        /// `--wide`: print the table at full width instead of fitting it to the terminal.
        var wide = false
        /// `--pillow-script`, when given.
        var pillowScript: String?
    }

    /// Reads and checks the options of a run.
    static func settings(_ arguments: ParsedArguments) throws(UsageError) -> Settings {
        let jobs = try arguments[job]
        return Settings(
            corpus: try arguments[corpus], jobs: jobs.isEmpty ? BenchJob.enabled : jobs, runs: try arguments[runs],
            parallel: try arguments[BenchCommand.jobs], peers: try arguments[peers], limit: try arguments[limit],
            linear: try arguments[linear], jsonPath: try arguments[json], htmlPath: try arguments[html],
            historyPath: try arguments[BenchCommand.history], note: try arguments[note] ?? "",
            saveHistory: !(try arguments[noHistory]), wide: try arguments[BenchCommand.wide],
            pillowScript: try arguments[pillowScript])
    }

    /// The tools a run asks for: ThumbKit, then the peers, then the floors.
    static func wantedTools(_ settings: Settings) -> [BenchTool] {
        [.thumbkit] + (settings.peers ? BenchTool.peers : []) + (settings.limit ? BenchTool.floors : [])
    }

    static func run(_ settings: Settings, context: CommandContext) throws -> ExitCode {
        if let script = settings.pillowScript, !FileManager.default.isReadableFile(atPath: script) {
            throw UsageError.invalidValue(option: "--pillow-script", value: script, reason: "cannot read it")
        }
        // A catalog build runs on the demo catalog it prepares itself: a run of catalog builds
        // alone needs no corpus.
        let corpus =
            settings.jobs.allSatisfy(\.isCatalogBuild)
            ? BenchCorpus(root: settings.corpus, sets: [:]) : try BenchCorpus.load(root: settings.corpus)
        // The reports replace their files: never the history, a database or a picture of the corpus.
        try BenchReportTargets.check(
            json: settings.jsonPath, html: settings.htmlPath, history: settings.historyPath, corpus: corpus)
        // Open (or create) the history before the benchmark runs, so that a --history that
        // names no history file (a catalog, a picture) is refused before, not after, the work.
        let history = settings.saveHistory ? try BenchHistoryStore(path: settings.historyPath) : nil
        let executable = BenchPrograms.currentExecutable()
        let programs = BenchPrograms(
            thumbkit: executable,
            pillowScript: settings.pillowScript ?? BenchPrograms.defaultPillowScript(executable: executable))
        let discovery = BenchPeer.discover(
            wantedTools(settings), programs: programs, thumbkitVersion: VersionInfo.version)
        for missing in discovery.missing { context.printError("notice: skipping \(missing)") }
        guard discovery.found.contains(where: { $0.tool == .thumbkit }) else {
            throw BenchError.tool(name: "thumbkit", reason: "cannot run \(executable)")
        }
        let work = (NSTemporaryDirectory() as NSString).appendingPathComponent("thumbkit-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let session = BenchSession(
            options: BenchSession.Options(
                corpus: corpus, jobs: settings.jobs, tools: discovery.found, runs: settings.runs,
                parallel: settings.parallel, linearLight: settings.linear, programs: programs, workFolder: work,
                peersRequested: settings.peers, limitRequested: settings.limit))
        let environment = BenchReport.Environment.detect(
            thumbkitVersion: VersionInfo.version, tools: discovery.found,
            directories: [(executable as NSString).deletingLastPathComponent, nil])
        let progress = context.progress
        let report = session.run(environment: environment) { step in
            switch step {
            case .preparing(let key):
                progress.update("preparing \(key)")
            case .timing(let done, let total, let key, let tool):
                progress.update("[\(done + 1)/\(total)] timing \(tool) on \(key)")
            case .scoring(let done, let total, let set):
                progress.update("[\(done)/\(total)] scoring the \(set.rawValue) set")
            }
        }
        progress.finish()
        let width = settings.wide ? nil : BenchTableWidth.width(of: context.stdout, environment: context.environment)
        context.stdout.write(BenchTextRenderer.render(report, width: width))

        var failed = report.jobs.contains { job in job.thumbkit.map { !$0.failures.isEmpty } ?? true }
        if let path = settings.jsonPath {
            failed =
                !write(Array(try CommandContext.jsonString(report).utf8) + [10], to: path, context: context) || failed
        }
        if let path = settings.htmlPath {
            failed = !write(Array(BenchHTMLRenderer.render(report).utf8), to: path, context: context) || failed
        }
        if let history {
            do {
                let run = try BenchHistory.save(report, note: settings.note, to: history)
                context.print(
                    "Saved as run \(run.id) in \(history.path) (see 'thumbkit bench show \(run.id)').")
            } catch {
                context.report(error)
                failed = true
            }
        }
        return failed ? .failure : .success
    }

    /// Writes a report file atomically; reports a failure and returns false.
    private static func write(_ bytes: [UInt8], to path: String, context: CommandContext) -> Bool {
        do {
            try FileIO.writeAtomically(bytes, to: path)
            return true
        } catch {
            context.report(error)
            return false
        }
    }
}
