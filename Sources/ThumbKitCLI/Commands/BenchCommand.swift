import Foundation
import ThumbKitBench
import ThumbKitCatalog
import ThumbKitQuality

/// `thumbkit bench`: times ThumbKit (and, with `--peers`, the tools people use today) on a
/// corpus, scores the outputs' quality, and keeps a history in the catalog.
///
/// One command with an optional action word, because the parser's groups take no value
/// options and `thumbkit bench` alone must run the benchmark:
/// - `thumbkit bench [options]` runs it (``BenchRunCommand``);
/// - `thumbkit bench history` lists the saved runs (``BenchHistoryCommand``);
/// - `thumbkit bench show RUN` is the detail view of one run (``BenchShowCommand``);
/// - `thumbkit bench decode --job NAME FILE...` only decodes, at the scale the job would
///   use (the decode floor the benchmark times, ``BenchDecodeCommand``).
enum BenchCommand: Command {
    static let spec = CommandSpec(
        name: "bench", abstract: "Benchmark thumbnail speed and quality against peer tools, with a history.",
        discussion: """
            Runs each job over the corpus (DIR/jpeg/*.jpg and DIR/png/*.png, as scripts/bench-corpus \
            builds it) --runs times after a warm-up, taking turns between tools, and prints per job: \
            images/s, input MP/s, wall seconds (min/median/max), CPU seconds, peak RSS, and SSIM and \
            PSNR of every output against a Lanczos3 reference of the full-resolution picture, cut with \
            the tool's own crop geometry (exact or whole-pixel). With --peers the same jobs run with vipsthumbnail, ImageMagick \
            (with and without its JPEG size hint), GraphicsMagick and Pillow when found \
            (scripts/install-peers installs them), and the table shows thumbkit's speed divided by \
            theirs. With --limit it also times decoding alone (djpeg and thumbkit's own decode) at \
            the scale thumbkit picks. The icons job is thumbkit alone: each run is a full \
            'thumbkit build' of the demo catalog (prepared once, untimed, in a private database \
            copied fresh for every run; no corpus needed); its images are the image files written \
            and its MP the source pictures decoded, and it is not scored. Each run is saved in the \
            catalog.

            Actions:
              thumbkit bench [options]         run the benchmark
              thumbkit bench history           list saved runs, newest first
              thumbkit bench show RUN          one run against the runs of its month
              thumbkit bench decode --job NAME FILE...
                                               decode only, at the job's scale (the floor)

            Jobs: \(BenchJob.all.map { "\($0.name): \($0.summary)\($0.isEnabled ? "" : " (not available yet)")" }.joined(separator: "; ")).
            """,
        positionals: [
            .optional("action", help: "run (the default), history, show or decode."),
            .variadic("argument", help: "show: a run id; decode: image files.", required: false),
        ],
        options: [
            .value("corpus", valueName: "dir", help: "Benchmark corpus folder.", default: "bench-corpus"),
            .repeated(
                "job", valueName: "name", help: "Job to run (repeatable; default: every available job).",
                allowedValues: BenchJob.all.map(\.name)),
            .value("runs", valueName: "n", help: "Timed runs per tool, after one warm-up.", default: "5"),
            .value(
                "jobs", short: "j", valueName: "n", help: "Parallelism given to every tool.",
                defaultHelp: "active processors"),
            .flag("peers", help: "Also time the peer tools found on PATH."),
            .flag("limit", help: "Also time decoding alone (the floor) for comparison."),
            .flag("linear", help: "Also score against a linear-light reference."),
            .value("json", valueName: "file", help: "Write every figure as JSON to this file."),
            .value("html", valueName: "file", help: "Write an HTML page with bar charts to this file."),
            .value(
                "catalog", valueName: "path|url",
                help: "The catalog that keeps the history: " + CatalogOptions.catalogHelp + ".",
                default: "thumbkit.sqlite"),
            .value("note", valueName: "text", help: "A note saved with the run."),
            .flag("no-history", help: "Do not save the run in the catalog."),
            .flag("wide", help: "Print tables at full width instead of fitting them to the terminal."),
            .value(
                "pillow-script", valueName: "file",
                help: "Pillow's driver, scripts/peers/pillow_thumb.py (for --peers).",
                defaultHelp:
                    "../share/thumbkit/ or, in a build folder, the checkout's scripts/peers/, from the binary's folder"),
        ])

    /// What the command line asks for.
    enum Action: Sendable, Hashable {
        case run(BenchRunCommand.Settings)
        case history(catalog: String, wide: Bool)
        case show(runID: Int, catalog: String, wide: Bool)
        case decode(job: BenchJob, files: [String], parallel: Int)
    }

    /// The options each action accepts besides its positionals.
    static let optionsByAction: [String: Set<String>] = [
        "history": ["catalog", "wide"],
        "show": ["catalog", "wide"],
        "decode": ["job", "jobs"],
    ]

    /// Reads the action and checks that only its options were given.
    static func action(_ arguments: ParsedArguments) throws(UsageError) -> Action {
        let word = arguments.argument("action") ?? "run"
        let rest = arguments.arguments("argument")
        if word != "run" {
            guard let allowed = optionsByAction[word] else {
                throw .invalidValue(option: "<action>", value: word, reason: "expected run, history, show or decode")
            }
            for option in spec.options where arguments.isPresent(option.long) && !allowed.contains(option.long) {
                throw .validationFailed("\(option.displayName) does not apply to 'bench \(word)'")
            }
        }
        let catalog = arguments.value("catalog")!
        switch word {
        case "run":
            if let extra = rest.first { throw .unexpectedArgument(extra) }
            return .run(try BenchRunCommand.settings(arguments))
        case "history":
            if let extra = rest.first { throw .unexpectedArgument(extra) }
            return .history(catalog: catalog, wide: arguments.flag("wide"))
        case "show":
            guard let text = rest.first else { throw .missingArgument("run") }
            if rest.count > 1 { throw .unexpectedArgument(rest[1]) }
            guard let id = Int(text), id > 0 else {
                throw .invalidValue(
                    option: "<run>", value: text, reason: "expected a run id from 'thumbkit bench history'")
            }
            return .show(runID: id, catalog: catalog, wide: arguments.flag("wide"))
        default:
            let names = arguments.values("job")
            guard names.count == 1, let job = BenchJob.named(names[0]) else {
                throw .validationFailed("'bench decode' needs exactly one --job")
            }
            guard !rest.isEmpty else { throw .missingArgument("argument") }
            return .decode(job: job, files: rest, parallel: try BenchRunCommand.parallelism(arguments))
        }
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        switch try action(arguments) {
        case .run(let settings): return try BenchRunCommand.run(settings, context: context)
        case .history(let catalog, let wide):
            return try BenchHistoryCommand.run(catalog: catalog, wide: wide, context: context)
        case .show(let id, let catalog, let wide):
            return try BenchShowCommand.run(runID: id, catalog: catalog, wide: wide, context: context)
        case .decode(let job, let files, let parallel):
            return BenchDecodeCommand.run(job: job, files: files, parallel: parallel, context: context)
        }
    }
}
