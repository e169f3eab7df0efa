// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitCatalog
import ThumbKitSite

/// `thumbkit site OUT_DIR`: a static HTML site of the catalog.
enum SiteCommand: Command {
    /// Missing outputs listed one by one before the rest are counted.
    static let missingShown = 5

    static let spec = CommandSpec(
        name: "site", abstract: "Write a static HTML site of the catalog.",
        discussion: """
            Writes index.html, the bug list and bug pages, and the food categories, lists and \
            pages into OUT_DIR, with every image as an <img srcset> of its @1x/@2x/@3x files. \
            The images are linked (or copied) from the output folder into OUT_DIR/images, so the \
            site works opened from disk. Run 'thumbkit build' first. The site records what it \
            wrote in OUT_DIR/.thumbkit-site.json and only ever replaces or removes those files; \
            a non-empty folder without that record is refused unless --into-existing is given.
            """,
        positionals: [.required("site-dir", help: "The folder to write the site into.")],
        options: [
            CatalogOptions.catalog, CatalogOptions.out,
            intoExisting,
            CommonOptions.json,
        ])

    /// `--into-existing`.
    static let intoExisting: OptionKey<Bool> = .flag(
        "into-existing", help: "Write into a non-empty folder that is not a site yet (its files are kept).")

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let store = try CatalogOptions.openStore(arguments, readOnly: true)
        defer { store.close() }
        let out = try arguments[CatalogOptions.out]
        let report = try SiteGenerator(
            store: store, outputDirectory: out, intoExisting: try arguments[intoExisting]
        ).generate(into: arguments.argument("site-dir")!)
        for path in report.missing.prefix(missingShown) {
            context.printError("warning: \(path): missing from the output folder (run 'thumbkit build --out \(out)')")
        }
        if report.missing.count > missingShown {
            context.printError(
                "warning: \(report.missing.count - missingShown) more outputs missing from \(out) "
                    + "(run 'thumbkit build --out \(out)')")
        }
        for line in report.kept + report.warnings { context.printError("warning: \(line)") }
        for line in report.problems { context.printError(line) }
        if try arguments[CommonOptions.json] {
            try context.writeJSON(report)
        } else {
            context.print("site: \(report.index) (\(report.pages) pages, \(report.images) images)")
        }
        return report.problems.isEmpty ? .success : .failure
    }
}
