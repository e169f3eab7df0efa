// SPDX-License-Identifier: Apache-2.0
import ThumbKitCatalog

/// `thumbkit catalog remove ID`.
enum CatalogRemoveCommand: Command {
    static let spec = CommandSpec(
        name: "remove", abstract: "Remove a record and the output files built for it.",
        discussion: """
            Deletes the bug or food, its output rows and, once that is committed, the output \
            files the catalog recorded for it under --out (and the folders they leave empty). \
            Nothing else is touched: not its source picture, not any other record's files, not \
            a file the catalog did not write. A recorded file that is not safe to remove (outside \
            --out through a link, or some record's source) is kept, named on stderr, and the \
            command exits 1. An --out that another catalog claimed (OUT/.thumbkit-catalog names \
            it) is refused before anything is deleted, as every build refuses it; in a folder no \
            catalog claimed, no file is removed.

            Example:
              thumbkit catalog remove food:4
            """,
        positionals: [.required("id", help: "The record: N or bug:N for a bug, food:N for a food.")],
        options: [CatalogOptions.catalog, CatalogOptions.out])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let ref = try CatalogOptions.record(arguments.argument("id")!)
        let store = try CatalogOptions.openStore(arguments)
        defer { store.close() }
        let outcome = try RecordRemoval.remove(ref, store: store, outputDirectory: try arguments[CatalogOptions.out])
        let out = try arguments[CatalogOptions.out]
        for kept in outcome.kept { context.printError("\(out)/\(kept); kept") }
        context.print(
            "removed \(ref.kind.rawValue):\(ref.id) \(Terminal.oneLine(outcome.title)) and "
                + CatalogOptions.count(outcome.removed.count, "output file"))
        return ExitCode(failureCount: outcome.kept.count)
    }
}
