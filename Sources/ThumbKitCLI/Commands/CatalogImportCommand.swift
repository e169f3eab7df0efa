// SPDX-License-Identifier: Apache-2.0
import ThumbKitCatalog

/// `thumbkit catalog import FILE.json [--atomic]`.
enum CatalogImportCommand: Command {
    static let spec = CommandSpec(
        name: "import", abstract: "Add or update records from a JSON file.",
        discussion: """
            FILE lists categories, bugs (title, rating, image), foods (category, name, image), \
            imagesDir, ratingIcons and logo; paths are relative to FILE. A food without an image \
            is found in imagesDir as <name>.png or .jpg. Bugs are matched by title and foods by \
            category and name, so importing a file twice changes nothing. Each bad record is \
            reported with its position (bugs[2]) and skipped; with --atomic nothing goes in if \
            any record is bad. An export is also a valid import file.
            """,
        positionals: [.required("file", help: "The JSON file to import.")],
        options: [
            CatalogOptions.catalog,
            atomic,
            CommonOptions.json,
        ])

    struct Summary: Encodable {
        struct Counts: Encodable {
            let added: Int
            let updated: Int
            let unchanged: Int
        }

        let applied: Bool
        let bugs: Counts
        let foods: Counts
        let categories: Counts
        let problems: [String]
    }

    /// `--atomic`.
    static let atomic: OptionKey<Bool> = .flag("atomic", help: "Import nothing if any record is bad.")

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let file = arguments.argument("file")!
        let store = try CatalogOptions.openStore(arguments, mustExist: false)
        defer { store.close() }
        let report = try CatalogImporter(store: store).importFile(at: file, atomic: try arguments[atomic])
        for problem in report.problems { context.printError("\(file): \(problem)") }
        func counts(_ c: ImportReport.Counts) -> Summary.Counts {
            Summary.Counts(added: c.added, updated: c.updated, unchanged: c.unchanged)
        }
        if try arguments[CommonOptions.json] {
            try context.writeJSON(
                Summary(
                    applied: report.applied, bugs: counts(report.bugs), foods: counts(report.foods),
                    categories: counts(report.categories), problems: report.problems.map(\.description)))
        } else if !report.applied {
            context.print("nothing imported: \(CatalogOptions.count(report.problems.count, "bad record")) (--atomic)")
        } else {
            func text(_ c: ImportReport.Counts) -> String {
                "\(c.added) added, \(c.updated) updated, \(c.unchanged) unchanged"
            }
            context.print(
                "bugs: \(text(report.bugs)); foods: \(text(report.foods)); categories: \(text(report.categories))")
        }
        return ExitCode(failureCount: report.problems.count)
    }
}
