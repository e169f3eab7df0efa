// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitCatalog

/// `thumbkit catalog show ID`: one record in detail, compared with the rest of the catalog.
enum CatalogShowCommand: Command {
    static let spec = CommandSpec(
        name: "show", abstract: "Show one record, its outputs, and how it compares with the rest.",
        discussion: """
            ID is N or bug:N for a bug, food:N for a food, or a title or name: exact first, \
            then ignoring case; a title that names more than one record is an error listing \
            them. For a bug, its rating against the lowest, highest and average rating of all bugs \
            (green above the average, red below, when stdout is a terminal); for any record, its \
            outputs and their sizes against the smallest, largest and average output of the \
            catalog.
            """,
        positionals: [
            .required("id", help: "The record: N or bug:N for a bug, food:N for a food, or its title or name.")
        ],
        options: [CatalogOptions.catalog, CommonOptions.json])

    /// How a record compares with the catalog.
    struct Comparison: Encodable {
        let ratings: CatalogSummary.Spread?
        let outputBytes: CatalogSummary.Spread?
        /// `above`, `below` or `average` (nil for a food).
        let ratingVersusAverage: String?
        /// The record's mean output size, or nil without outputs.
        let averageOutputBytes: Double?
    }

    struct Detail: Encodable {
        /// The row id, as in `catalog export` and `list --json`.
        let id: Int
        /// `bug` or `food`.
        let kind: RecordKind
        let title: String
        let rating: Rating?
        let category: String?
        let image: ImageRef?
        let createdAt: Date
        let updatedAt: Date
        let outputs: [OutputRecord]
        let comparison: Comparison
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let store = try CatalogOptions.openStore(arguments, readOnly: true)
        defer { store.close() }
        let ref = try CatalogOptions.record(arguments.argument("id")!, orTitleIn: store)
        let detail = try store.read { tx -> Detail in
            let summary = try tx.summary()
            let order = OutputKind.allCases
            let outputs = try tx.outputs(for: ref).sorted {
                (order.firstIndex(of: $0.kind)!, $0.scale) < (order.firstIndex(of: $1.kind)!, $1.scale)
            }
            let mean = outputs.isEmpty ? nil : Double(outputs.map(\.bytes).reduce(0, +)) / Double(outputs.count)
            if ref.kind == .bug {
                let bug = try tx.requireBug(id: ref.id)
                let versus = summary.ratings.map { compare(bug.rating.value, $0.average) }
                return Detail(
                    id: bug.id, kind: .bug, title: bug.title, rating: bug.rating, category: nil, image: bug.image,
                    createdAt: bug.createdAt, updatedAt: bug.updatedAt, outputs: outputs,
                    comparison: Comparison(
                        ratings: summary.ratings, outputBytes: summary.outputBytes, ratingVersusAverage: versus,
                        averageOutputBytes: mean))
            }
            let food = try tx.requireFood(id: ref.id)
            return Detail(
                id: food.id, kind: .food, title: food.name, rating: nil, category: food.category, image: food.image,
                createdAt: food.createdAt, updatedAt: food.updatedAt, outputs: outputs,
                comparison: Comparison(
                    ratings: nil, outputBytes: summary.outputBytes, ratingVersusAverage: nil, averageOutputBytes: mean))
        }
        if try arguments[CommonOptions.json] {
            try context.writeJSON(detail)
        } else {
            for line in lines(detail, colors: context.colors) { context.print(line) }
        }
        return .success
    }

    /// `above`, `below` or `average`.
    static func compare(_ value: Double, _ average: Double) -> String {
        abs(value - average) < 1e-9 ? "average" : value > average ? "above" : "below"
    }

    /// The text view.
    static func lines(_ detail: Detail, colors: Terminal.Palette) -> [String] {
        let dates = ISO8601DateFormatter()
        var lines = [
            colors.bold(Terminal.oneLine(detail.title)), "  id       \(detail.kind.rawValue):\(detail.id)",
        ]
        if let category = detail.category { lines.append("  category \(Terminal.oneLine(category))") }
        if let rating = detail.rating {
            var line = "  rating   \(stars(rating)) \(rating)"
            if let spread = detail.comparison.ratings, let versus = detail.comparison.ratingVersusAverage {
                let text = versus == "average" ? "the average" : "\(versus) average"
                let painted = versus == "above" ? colors.green(text) : versus == "below" ? colors.red(text) : text
                line +=
                    "  \(painted) (\(spread.count == 1 ? "the only bug" : "all \(spread.count) bugs"): min \(number(spread.min)), "
                    + "average \(number(spread.average)), max \(number(spread.max)))"
            }
            lines.append(line)
        }
        lines.append("  image    " + (detail.image.map { Terminal.oneLine($0.path) } ?? "none"))
        if let image = detail.image { lines.append("  sha256   \(image.sha256)") }
        lines.append("  created  \(dates.string(from: detail.createdAt))")
        lines.append("  updated  \(dates.string(from: detail.updatedAt))")
        let total = detail.outputs.map(\.bytes).reduce(0, +)
        var outputs =
            "  outputs  \(CatalogOptions.count(detail.outputs.count, "file")), \(CatalogOptions.bytes(Double(total)))"
        if let mean = detail.comparison.averageOutputBytes, let spread = detail.comparison.outputBytes {
            let versus = compare(mean, spread.average)
            outputs +=
                ", \(CatalogOptions.bytes(mean)) per file (\(versus == "average" ? "the" : versus) catalog's average)"
            lines.append(outputs)
            lines.append(
                "  catalog  per file: min \(CatalogOptions.bytes(spread.min)), average "
                    + "\(CatalogOptions.bytes(spread.average)), max \(CatalogOptions.bytes(spread.max))")
        } else {
            lines.append(outputs)
        }
        for row in detail.outputs {
            lines.append(
                "    " + CatalogListCommand.pad(row.kind.rawValue, 6) + CatalogListCommand.pad("@\(row.scale)x", 3)
                    + CatalogListCommand.pad("\(row.width)x\(row.height)", 9)
                    + CatalogListCommand.pad(row.format.rawValue, 4)
                    + CatalogListCommand.pad(CatalogOptions.bytes(Double(row.bytes)), 8) + row.path)
        }
        return lines
    }

    /// `★★★½☆` for 3.5.
    static func stars(_ rating: Rating) -> String {
        RatingStrip.states(for: rating).map { state in
            switch state {
            case .full: return "★"
            case .half: return "½"
            case .empty: return "☆"
            }
        }.joined()
    }

    /// `3`, `2.83`, `4.5`: at most two decimals, no trailing zeros.
    static func number(_ value: Double) -> String {
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
