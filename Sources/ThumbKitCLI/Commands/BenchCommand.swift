// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitBench
import ThumbKitCatalog

/// `thumbkit bench`: times ThumbKit (and, with `--peers`, the tools people use today) on a
/// corpus, scores the outputs' quality, and keeps a history in a file of its own (`--history`,
/// a ``BenchHistoryStore``; never in a catalog).
///
/// A group whose default subcommand is `run`, so `thumbkit bench [options]` runs the benchmark:
/// - `thumbkit bench [run] [options]` (``BenchRunCommand``);
/// - `thumbkit bench history` lists the saved runs (``BenchHistoryCommand``);
/// - `thumbkit bench show RUN` is the detail view of one run (``BenchShowCommand``);
/// - `thumbkit bench decode --job NAME FILE...` only decodes, at the scale the job would use
///   (the decode floor the benchmark times, ``BenchDecodeCommand``);
/// - `thumbkit bench queue` measures the build queue with no-op records (``BenchQueueCommand``).
enum BenchCommand: CommandGroup {
    static let spec = CommandSpec(
        name: "bench", abstract: "Benchmark thumbnail speed and quality against peer tools, with a history.",
        discussion: """
            'thumbkit bench' alone is 'thumbkit bench run'. Each run is saved in the benchmark \
            history (--history, an SQLite file of its own, never a catalog), where 'history' lists \
            the runs and 'show' compares one with the runs of its month. 'history --import-catalog' \
            copies the runs an older thumbkit kept in a catalog.
            """,
        defaultSubcommand: "run")
    static let subcommands: [any Command.Type] = [
        BenchRunCommand.self, BenchHistoryCommand.self, BenchShowCommand.self, BenchDecodeCommand.self,
        BenchQueueCommand.self,
    ]

    /// `--history PATH`: where the history is kept (run, history and show).
    static let history: OptionKey<String> = .text(
        "history", valueName: "path", default: BenchHistoryStore.defaultPath,
        help: "The benchmark history: an SQLite file of its own (a catalog or any other file is refused).")
    /// `--wide`: tables at full width (run, history and show).
    static let wide: OptionKey<Bool> = .flag(
        "wide", help: "Print tables at full width instead of fitting them to the terminal.")
    /// `-j N`: the parallelism given to every tool (run) or to the decodes (decode).
    static let jobs = CommonOptions.jobs("Parallelism given to every tool.")
}
