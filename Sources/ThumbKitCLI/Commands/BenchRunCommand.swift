import Foundation
import ThumbKit
import ThumbKitBench
import ThumbKitCatalog
import ThumbKitQuality

/// `thumbkit bench [options]`: runs the benchmark, prints the table, writes `--json` and
/// `--html`, and saves the run in the catalog.
enum BenchRunCommand {
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
        var catalogPath: String
        var note: String
        var saveHistory: Bool
        /// `--wide`: print the table at full width instead of fitting it to the terminal.
        var wide = false
        /// `--pillow-script`, when given.
        var pillowScript: String?
    }

    /// `-j`, or the processors available.
    static func parallelism(_ arguments: ParsedArguments) throws(UsageError) -> Int {
        try arguments.int("jobs", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
    }

    /// Reads and checks the options of a run.
    static func settings(_ arguments: ParsedArguments) throws(UsageError) -> Settings {
        var jobs: [BenchJob] = []
        for name in arguments.values("job") {
            guard let job = BenchJob.named(name) else {
                throw .invalidValue(option: "--job", value: name, reason: "no such job")
            }
            if let reason = job.unavailableReason { throw .invalidValue(option: "--job", value: name, reason: reason) }
            if !jobs.contains(job) { jobs.append(job) }
        }
        return Settings(
            corpus: arguments.value("corpus")!, jobs: jobs.isEmpty ? BenchJob.enabled : jobs,
            runs: try arguments.int("runs", in: 1...1000)!, parallel: try parallelism(arguments),
            peers: arguments.flag("peers"), limit: arguments.flag("limit"), linear: arguments.flag("linear"),
            jsonPath: arguments.value("json"), htmlPath: arguments.value("html"),
            catalogPath: arguments.value("catalog")!, note: arguments.value("note") ?? "",
            saveHistory: !arguments.flag("no-history"), wide: arguments.flag("wide"),
            pillowScript: arguments.value("pillow-script"))
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
        if settings.saveHistory {
            do {
                let store = try CatalogOptions.openStore(catalog: settings.catalogPath, mustExist: false)
                let run = try BenchHistory.save(report, note: settings.note, to: store)
                context.print(
                    "Saved as run \(run.id) in \(store.path) (see 'thumbkit bench show \(run.id)').")
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
