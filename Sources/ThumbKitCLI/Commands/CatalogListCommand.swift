// SPDX-License-Identifier: Apache-2.0
import ThumbKitCatalog

/// `thumbkit catalog list`.
enum CatalogListCommand: Command {
    static let spec = CommandSpec(
        name: "list", abstract: "List the bugs and foods.",
        discussion: """
            One line per record: id, rating or category, number of outputs, title or name. With \
            --json, ids are numbers as in 'catalog export', in the bugs or foods list.
            """,
        options: [CatalogOptions.catalog, CommonOptions.json])

    struct Row: Encodable {
        /// The row id, as in `catalog export` (the list it is in says bug or food).
        let id: Int
        let title: String
        let rating: Rating?
        let category: String?
        let outputs: Int
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let store = try CatalogOptions.openStore(arguments, readOnly: true)
        defer { store.close() }
        let (bugs, foods, categories, counts) = try store.read { tx in
            (try tx.bugs(), try tx.foods(), try tx.categories(), Dictionary(grouping: try tx.outputs(), by: \.record))
        }
        if try arguments[CommonOptions.json] {
            struct Listing: Encodable {
                let bugs: [Row]
                let foods: [Row]
                let categories: [String]
            }
            try context.writeJSON(
                Listing(
                    bugs: bugs.map {
                        Row(
                            id: $0.id, title: $0.title, rating: $0.rating, category: nil,
                            outputs: counts[$0.ref]?.count ?? 0)
                    },
                    foods: foods.map {
                        Row(
                            id: $0.id, title: $0.name, rating: nil, category: $0.category,
                            outputs: counts[$0.ref]?.count ?? 0)
                    },
                    categories: categories.map(\.name)))
            return .success
        }
        let colors = context.colors
        context.print(colors.bold("BUGS") + " (\(bugs.count))")
        for bug in bugs {
            context.print(
                "  " + pad("bug:\(bug.id)", 9) + pad(CatalogShowCommand.stars(bug.rating), 7)
                    + pad(bug.rating.description, 5)
                    + pad("\(counts[bug.ref]?.count ?? 0) out", 8) + Terminal.oneLine(bug.title))
        }
        context.print(
            colors.bold("FOODS")
                + " (\(foods.count) in \(CatalogOptions.count(categories.count, "category", "categories")))")
        for category in categories {
            let inCategory = foods.filter { $0.categoryID == category.id }
            context.print("  " + colors.dim(Terminal.oneLine(category.name)) + " (\(inCategory.count))")
            for food in inCategory {
                context.print(
                    "    " + pad("food:\(food.id)", 10) + pad("\(counts[food.ref]?.count ?? 0) out", 8)
                        + Terminal.oneLine(food.name))
            }
        }
        return .success
    }

    /// `text` padded with spaces to `width` characters, plus one space.
    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count)) + " "
    }
}
