// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitBench
import ThumbKitCatalog
import ThumbKitQuality

/// `thumbkit bench show RUN`: the detail view of one saved run (the Weight History detail
/// view, for performance). For each job and tool: the run's images/s against the lowest,
/// highest and average of the comparable runs in the same calendar month (same corpus, images
/// and timed runs; ``BenchHistory``), how many runs that is, the loss from the month's best
/// and the gain over its worst; green when better than the month's average and red when worse
/// (on a terminal). Numbers and dates follow the user's locale (`LC_ALL`, then `LC_NUMERIC` /
/// `LC_TIME`, then `LANG`) and time zone (`TZ`).
enum BenchShowCommand: Command {
    static let spec = CommandSpec(
        name: "show", abstract: "One run against the runs of its month.",
        positionals: [.required("run", help: "A run id from 'thumbkit bench history'.")],
        options: [BenchCommand.history, BenchCommand.wide])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        try run(
            runID: try runID(arguments), history: try arguments[BenchCommand.history],
            wide: try arguments[BenchCommand.wide], context: context)
    }

    /// The `<run>` argument, checked.
    static func runID(_ arguments: ParsedArguments) throws(UsageError) -> Int {
        let text = arguments.argument("run")!
        guard let id = Int(text), id > 0 else {
            throw .invalidValue(option: "<run>", value: text, reason: "expected a run id from 'thumbkit bench history'")
        }
        return id
    }

    static func run(runID: Int, history: String, wide: Bool, context: CommandContext) throws -> ExitCode {
        let store = try BenchHistoryCommand.openExisting(history)
        let calendar = calendar(environment: context.environment)
        let detail = try BenchHistory.detail(runID: runID, store: store, calendar: calendar)
        let width = wide ? nil : BenchTableWidth.width(of: context.stdout, environment: context.environment)
        context.stdout.write(render(detail, environment: context.environment, colors: context.colors, width: width))
        return .success
    }

    /// The columns kept when the whole table is wider than the terminal: job, tool, images/s,
    /// runs, from best, over worst (the month's min, average and max need `--wide`).
    static let narrowColumns = [0, 1, 2, 3, 7, 8]

    /// The whole view, ending with a newline; fitted to `width` columns when given.
    static func render(
        _ detail: BenchHistory.Detail, environment: [String: String], colors: Terminal.Palette, width: Int? = nil
    ) -> String {
        let numbers = locale(for: "LC_NUMERIC", environment: environment)
        let dates = locale(for: "LC_TIME", environment: environment)
        let zone = timeZone(environment: environment)
        let run = detail.run
        var lines = [
            "Run \(run.id) · \(dateText(run.date, locale: dates, timeZone: zone)) · commit \(run.gitCommit.prefix(12))"
        ]
        lines += BenchTableLayout.wrap(run.machine, width: width, indent: "  ")
        if !run.note.isEmpty { lines += BenchTableLayout.wrap("Note: \(run.note)", width: width, indent: "  ") }
        let month = monthText(detail.month.start, locale: dates, timeZone: zone)
        lines += BenchTableLayout.wrap(
            "Against the runs of \(month) on the same corpus, with as many images and timed runs "
                + "(runs: how many the month's figures come from, this one included):", width: width)
        lines.append("")
        guard !detail.comparisons.isEmpty else {
            return (lines + ["(this run has no results)"]).joined(separator: "\n") + "\n"
        }
        let decimal = FloatingPointFormatStyle<Double>.number.precision(.fractionLength(1)).locale(numbers)
        let percent = FloatingPointFormatStyle<Double>.Percent.percent.precision(.fractionLength(1))
            .sign(strategy: .always(includingZero: false)).locale(numbers)
        func number(_ value: Double) -> String { value.formatted(decimal) }
        func signed(_ value: Double) -> String { (value == 0 ? 0 : value).formatted(percent) }

        var rows = [
            ["job", "tool", "images/s", "runs", "month min", "month avg", "month max", "from best", "over worst"]
        ]
        for c in detail.comparisons {
            rows.append([
                c.job, c.tool, number(c.value), String(c.monthRuns), number(c.monthMin), number(c.monthMean),
                number(c.monthMax), signed(-c.lossFromBest), signed(c.gainOverWorst),
            ])
        }
        var columns = Array(rows[0].indices)
        if let width, BenchTableLayout.rowWidth(BenchTableLayout.columnWidths(rows)) > width {
            columns = narrowColumns
        }
        let shown = BenchTableLayout.select(rows, columns: columns)
        let widths = BenchTableLayout.columnWidths(shown)
        for (index, row) in shown.enumerated() {
            var cells: [String] = []
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                var text = column < 2 ? cell + padding : padding + cell
                if columns[column] == 2, index > 0 {
                    switch detail.comparisons[index - 1].standing {
                    case .better: text = colors.green(text)
                    case .worse: text = colors.red(text)
                    case .same: break
                    }
                }
                cells.append(text)
            }
            lines.append(cells.joined(separator: "  "))
        }
        if columns != Array(rows[0].indices) {
            lines.append("(month min, avg and max: bench show \(run.id) --wide)")
        }
        lines += notes(detail).flatMap { BenchTableLayout.wrap($0, width: width, indent: "  ") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line per result whose month holds runs it cannot be compared with.
    static func notes(_ detail: BenchHistory.Detail) -> [String] {
        var notes: [String] = []
        for c in detail.comparisons {
            if !c.corpusKnown {
                notes.append(
                    "note: \(c.job) \(c.tool): saved before runs recorded their corpus; compared with no other run")
            } else if c.incomparableRuns > 0 {
                let count = c.incomparableRuns
                notes.append(
                    "note: \(c.job) \(c.tool): \(count) other run\(count == 1 ? "" : "s") of the month measured "
                        + "another corpus, image count or number of timed runs (this one: \(c.images) "
                        + "image\(c.images == 1 ? "" : "s"), \(c.timedRuns) timed run\(c.timedRuns == 1 ? "" : "s")); "
                        + "not compared")
            }
        }
        return notes
    }

    // MARK: Locale

    /// The locale of a category: `LC_ALL`, else the category's variable, else `LANG`, read
    /// from `environment` (`de_DE.UTF-8` → `de_DE`; `C` and `POSIX` → `en_US_POSIX`); when
    /// none is set, `Locale.current`.
    static func locale(for category: String, environment: [String: String]) -> Locale {
        let value = [environment["LC_ALL"], environment[category], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty }
        guard let value else { return Locale.current }
        let name = value.split(separator: ".", maxSplits: 1).first.map(String.init) ?? value
        let base = name.split(separator: "@", maxSplits: 1).first.map(String.init) ?? name
        if base == "C" || base == "POSIX" || base.isEmpty { return Locale(identifier: "en_US_POSIX") }
        return Locale(identifier: base)
    }

    /// `TZ` from `environment` (`Europe/Berlin`, `:UTC`), else the system's time zone.
    static func timeZone(environment: [String: String]) -> TimeZone {
        guard var name = environment["TZ"], !name.isEmpty else { return TimeZone.current }
        if name.hasPrefix(":") { name.removeFirst() }
        return TimeZone(identifier: name) ?? TimeZone.current
    }

    /// A Gregorian calendar in the user's time zone: what "the same month" means.
    static func calendar(environment: [String: String]) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone(environment: environment)
        calendar.locale = locale(for: "LC_TIME", environment: environment)
        return calendar
    }

    /// `29 Nov 2026 at 15:30` in the locale's medium date and short time.
    static func dateText(_ date: Date, locale: Locale, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = timeZone
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        return formatter.string(from: date)
    }

    /// `November 2026` in the locale's words.
    static func monthText(_ date: Date, locale: Locale, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = timeZone
        formatter.setLocalizedDateFormatFromTemplate("MMMMyyyy")
        return formatter.string(from: date)
    }
}
