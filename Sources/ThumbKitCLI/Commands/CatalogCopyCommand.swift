// SPDX-License-Identifier: Apache-2.0
import ThumbKitCatalog

/// `thumbkit catalog copy FROM TO`.
enum CatalogCopyCommand: Command {
    static let spec = CommandSpec(
        name: "copy", abstract: "Copy a whole catalog into a new one, between SQLite and PostgreSQL.",
        discussion: """
            FROM and TO are each an SQLite file or a postgres:// URL. Every record keeps its id \
            and times, and every output row, setting (the catalog's id too), benchmark run and \
            watch-folder entry is copied, in one transaction: a build of TO with the same --out \
            then makes nothing. TO is created when it does not exist, and must hold no catalog \
            rows: a copy never merges into a catalog in use. FROM is only read.

            Examples:
              thumbkit catalog copy thumbkit.sqlite postgres://thumbkit@db.example/catalog
              thumbkit catalog copy postgres://thumbkit@db.example/catalog backup.sqlite
            """,
        positionals: [
            .required("from", help: "The catalog to copy: " + CatalogOptions.catalogHelp + "."),
            .required("to", help: "The new catalog, in the same form."),
        ])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let source = try CatalogOptions.openStore(catalog: arguments.argument("from")!, mustExist: true, readOnly: true)
        let destination = try CatalogOptions.openStore(catalog: arguments.argument("to")!, mustExist: false)
        defer {
            source.close()
            destination.close()
        }
        let counts = try CatalogCopy.copy(from: source, to: destination)
        context.print(
            "copied \(source.path) to \(destination.path): "
                + CatalogOptions.count(counts["bugs"] ?? 0, "bug") + ", "
                + CatalogOptions.count(counts["foods"] ?? 0, "food") + ", "
                + CatalogOptions.count(counts["outputs"] ?? 0, "output row") + ", "
                + CatalogOptions.count(counts["bench_runs"] ?? 0, "benchmark run"))
        return .success
    }
}
