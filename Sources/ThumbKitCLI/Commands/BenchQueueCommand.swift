// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitBench
import ThumbKitCatalog

/// `thumbkit bench queue`: the build queue's own throughput, with the image work taken out
/// (``QueueBench``): N no-op records drained by M real `thumbkit worker` processes, on a fresh
/// catalog (SQLite in a temporary folder, or a schema of its own in a PostgreSQL database),
/// removed afterwards. Not saved in the benchmark history.
enum BenchQueueCommand: Command {
    static let spec = CommandSpec(
        name: "queue", abstract: "Measure the build queue: no-op records drained by N worker processes.",
        discussion: """
            Each worker count gets a fresh catalog: SQLite in a new folder (in the temporary \
            folder, or in the folder --catalog names), or with \
            --catalog postgres://… a new schema in that database (CREATE SCHEMA \
            thumbkit_bench_…, dropped afterwards; nothing else in the database is touched). The \
            workers (thumbkit worker -j 1) start and go idle, are paused, --records foods are \
            queued in one transaction (one 16x16 picture, one 8x8 PNG recipe: the cheapest \
            record that still claims, builds, commits its row behind the fence and leaves the \
            queue), and the clock runs from letting them go to the last record built. Reported: \
            records/s, commits/s (the workers' committed write transactions), p50 and p99 claim \
            latency, the time the workers' write transactions waited for the catalog's write \
            lock (timed in each worker: SQLite's BEGIN IMMEDIATE, PostgreSQL's advisory lock), \
            and statements per record from pg_stat_statements (n/a on SQLite, or when the \
            extension is not loaded; on a shared server others' statements count too).

            With --soak (PostgreSQL only), the first worker count drains --records in three \
            parts, before, during and after a REPEATABLE READ transaction held open on another \
            connection, and each part's records/s and n_dead_tup of build_queue are reported.
            Examples:
              thumbkit bench queue --records 2000 --workers 1,2,4
              thumbkit bench queue --catalog postgres://localhost:5433/bench --workers 1,2,4,8 --json
            """,
        options: [catalog, records, workers, QueueOptions.batch, poll, timeout, soak, CommonOptions.json])
    /// `--soak`.
    static let soak: OptionKey<Bool> = .flag(
        "soak", help: "PostgreSQL: drain before, during and after a long-open snapshot; report dead rows.")

    /// `--catalog sqlite|DIR|URL`.
    static let catalog: OptionKey<String> = .text(
        "catalog", valueName: "sqlite|dir|url", default: "sqlite",
        help: "'sqlite' (a catalog file in a new temporary folder), an existing folder to make that new folder "
            + "in (to measure another disk), or a postgres:// URL of the database to make a schema of its own in.")
    /// `--records N`.
    static let records: OptionKey<Int> = .integer(
        "records", in: 1...10_000_000, default: 2000, help: "Records to drain in each run.")
    /// `--workers 1,2,4`.
    static let workers: OptionKey<[Int]> = .parsed(
        .value(
            "workers", valueName: "n,n…", help: "Worker processes; several, comma-separated, give one run each.",
            default: "1,2,4")
    ) { text throws(UsageError) in
        let values = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ ($0 ?? 0) >= 1 && ($0 ?? 0) <= 256 }) else {
            throw .invalidValue(option: "--workers", value: text, reason: "give worker counts of 1 to 256, like 1,2,4")
        }
        return values.compactMap { $0 }
    }
    /// `--poll SECONDS`.
    static let poll: OptionKey<Double> = .number(
        "poll", valueName: "seconds", in: 0.05...60, default: 0.1,
        help: "The workers' --poll (on SQLite the only way an idle worker finds new records).")
    /// `--timeout SECONDS`.
    static let timeout: OptionKey<Double> = .number(
        "timeout", valueName: "seconds", in: 1...86_400, default: 1800,
        help: "Give a run up when its records are not all built by then.")

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let target = try arguments[catalog]
        var server: String?
        var parent = NSTemporaryDirectory()
        if target != "sqlite" {
            if case .postgres = try CatalogLocation(parsing: target) {
                server = target
            } else {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: target, isDirectory: &isFolder), isFolder.boolValue else {
                    throw UsageError.invalidValue(
                        option: "--catalog", value: target,
                        reason: "give 'sqlite', an existing folder, or a postgres:// URL")
                }
                parent = target
            }
        }
        let json = try arguments[CommonOptions.json]
        let options = QueueBench.Options(
            executable: BenchPrograms.currentExecutable(), server: server, parent: parent,
            records: try arguments[records], workers: try arguments[workers],
            batch: try arguments[QueueOptions.batch], poll: try arguments[poll],
            timeout: try arguments[timeout])
        if try arguments[soak] {
            let report = try QueueSoak(options: options).run { line in if !json { context.printError(line) } }
            if json { try context.writeJSON(report) } else { context.print(report.table) }
            return report.isHealthy ? .success : .failure
        }
        let bench = QueueBench(options: options)
        let report = try bench.run { line in if !json { context.printError(line) } }
        if json {
            try context.writeJSON(report)
        } else {
            context.print(report.table)
        }
        let healthy = report.results.allSatisfy {
            $0.built == $0.records && $0.duplicates == 0 && $0.queueLeft == 0 && $0.outputRows == $0.records
        }
        return healthy ? .success : .failure
    }
}
