// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitBench
import ThumbKitCatalog
import ThumbKitQuality

/// `thumbkit bench history`: the saved benchmark runs, newest first, with their date (in the
/// user's locale and time zone), commit, machine and how many figures each kept. Lines wider
/// than the terminal (``BenchTableWidth``) are cut with `…`; `--wide` prints them whole.
///
/// With `--import-catalog CATALOG` it copies instead the runs an older thumbkit kept in that
/// catalog and the history lacks (``BenchHistoryStore/importRuns(from:)``), and says how many.
/// The catalog is opened read-only, so it is left exactly as it was.
enum BenchHistoryCommand: Command {
    static let spec = CommandSpec(
        name: "history", abstract: "List the saved runs, newest first.",
        discussion: """
            Older releases kept the runs in the catalog. --import-catalog copies the ones the \
            history lacks (the same date, commit, machine, note and figures count as one run, so \
            importing twice copies nothing) and leaves the catalog untouched.
            """,
        options: [BenchCommand.history, BenchCommand.wide, importCatalog])

    /// `--import-catalog PATH|URL`: the catalog whose old runs to copy.
    static let importCatalog: OptionKey<String?> = .text(
        "import-catalog", valueName: "path|url",
        help: "Copy the runs this catalog kept (only read: " + CatalogOptions.catalogHelp
            + ") into the history, then stop.")

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let history = try arguments[BenchCommand.history]
        if let catalog = try arguments[importCatalog] {
            return try importRuns(from: catalog, into: history, context: context)
        }
        return try run(history: history, wide: try arguments[BenchCommand.wide], context: context)
    }

    static func run(history: String, wide: Bool = false, context: CommandContext) throws -> ExitCode {
        let (runs, results) = try openExisting(history).runsAndResults()
        let width = wide ? nil : BenchTableWidth.width(of: context.stdout, environment: context.environment)
        context.stdout.write(
            render(runs: runs, results: results, history: history, environment: context.environment, width: width))
        return .success
    }

    /// `--import-catalog`: the catalog is opened (read-only) and read before the history is
    /// opened, so a catalog that cannot be read leaves no new history file behind.
    static func importRuns(from catalog: String, into history: String, context: CommandContext) throws -> ExitCode {
        let source = try CatalogOptions.openStore(catalog: catalog, mustExist: true, readOnly: true) {
            CatalogError.missingFile($0, hint: "no catalog here")
        }
        defer { source.close() }
        let store = try BenchHistoryStore(path: history)
        let done = try store.importRuns(from: source)
        context.print(
            "Copied \(CatalogOptions.count(done.copiedRuns, "run")) (\(CatalogOptions.count(done.copiedResults, "figure"))) "
                + "from \(source.path) into \(store.path); \(CatalogOptions.count(done.presentRuns, "run")) "
                + "\(done.presentRuns == 1 ? "was" : "were") there already.")
        return .success
    }

    /// The listing, ending with a newline; lines cut to `width` when given.
    static func render(
        runs: [BenchRun], results: [BenchResult], history: String, environment: [String: String], width: Int? = nil
    ) -> String {
        guard !runs.isEmpty else { return "No benchmark runs in \(history) yet (run 'thumbkit bench').\n" }
        let locale = BenchShowCommand.locale(for: "LC_TIME", environment: environment)
        let zone = BenchShowCommand.timeZone(environment: environment)
        var counts: [Int: Int] = [:]
        for result in results { counts[result.runID, default: 0] += 1 }
        var rows = [["run", "date", "commit", "figures", "machine", "note"]]
        for run in runs {
            rows.append([
                String(run.id), BenchShowCommand.dateText(run.date, locale: locale, timeZone: zone),
                String(run.gitCommit.prefix(12)), String(counts[run.id, default: 0]), run.machine, run.note,
            ])
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        let lines = rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 || column == 3 ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingTrailingSpaces
        }
        let fitted = lines.map { BenchTableLayout.cut($0, to: width) }
        let footer =
            fitted != lines ? ["(lines cut to \(width ?? 0) columns: bench history --wide shows them whole)"] : []
        return (fitted + footer).joined(separator: "\n") + "\n"
    }

    /// Opens, read-only, a history that must already exist (reading it never creates one).
    static func openExisting(_ history: String) throws -> BenchHistoryStore {
        guard FileManager.default.fileExists(atPath: history) else { throw BenchError.missingHistory(path: history) }
        return try BenchHistoryStore(path: history, readOnly: true)
    }
}

extension String {
    /// The string without trailing spaces.
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
