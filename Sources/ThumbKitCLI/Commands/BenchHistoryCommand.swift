import Foundation
import ThumbKitBench
import ThumbKitCatalog
import ThumbKitQuality

/// `thumbkit bench history`: the saved benchmark runs, newest first, with their date (in the
/// user's locale and time zone), commit, machine and how many figures each kept. Lines wider
/// than the terminal (``BenchTableWidth``) are cut with `…`; `--wide` prints them whole.
enum BenchHistoryCommand: Command {
    static let spec = CommandSpec(
        name: "history", abstract: "List the saved runs, newest first.",
        options: [BenchCommand.catalog, BenchCommand.wide])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        try run(catalog: try arguments[BenchCommand.catalog], wide: try arguments[BenchCommand.wide], context: context)
    }

    static func run(catalog: String, wide: Bool = false, context: CommandContext) throws -> ExitCode {
        let store = try openExisting(catalog)
        let (runs, results) = try store.read { tx in (try tx.benchRuns(), try tx.benchResults()) }
        let width = wide ? nil : BenchTableWidth.width(of: context.stdout, environment: context.environment)
        context.stdout.write(
            render(runs: runs, results: results, catalog: store.path, environment: context.environment, width: width))
        return .success
    }

    /// The listing, ending with a newline; lines cut to `width` when given.
    static func render(
        runs: [BenchRun], results: [BenchResult], catalog: String, environment: [String: String], width: Int? = nil
    ) -> String {
        guard !runs.isEmpty else { return "No benchmark runs in \(catalog) yet (run 'thumbkit bench').\n" }
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

    /// Opens a catalog that must already exist (reading the history never creates one).
    static func openExisting(_ catalog: String) throws -> CatalogStore {
        try CatalogOptions.openStore(catalog: catalog, mustExist: true) { BenchError.missingCatalog(path: $0) }
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
