import Foundation
import ThumbKitCatalog

/// `thumbkit site OUT_DIR`: a static HTML site of the catalog.
enum SiteCommand: Command {
    static let spec = CommandSpec(
        name: "site", abstract: "Write a static HTML site of the catalog.",
        discussion: """
            Writes index.html, the bug list and bug pages, and the food categories, lists and \
            pages into OUT_DIR, with every image as an <img srcset> of its @1x/@2x/@3x files. \
            The images are linked (or copied) from the output folder into OUT_DIR/images, so the \
            site works opened from disk and does not need JavaScript. Run 'thumbkit build' first.
            """,
        positionals: [.required("site-dir", help: "The folder to write the site into.")],
        options: [CatalogOptions.catalog, CatalogOptions.out, .json])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let store = try CatalogOptions.openStore(arguments, readOnly: true)
        let report = try SiteGenerator(store: store, outputDirectory: arguments.value("out")!)
            .generate(into: arguments.argument("site-dir")!)
        for path in report.missing {
            context.printError("warning: \(path): missing from the output folder (run 'thumbkit build')")
        }
        if arguments.flag("json") {
            try context.writeJSON(report)
        } else {
            context.print("site: \(report.index) (\(report.pages) pages, \(report.images) images)")
        }
        return .success
    }
}
