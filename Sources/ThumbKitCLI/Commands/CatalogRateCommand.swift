// SPDX-License-Identifier: Apache-2.0
import ThumbKitCatalog

/// `thumbkit catalog rate ID RATING`.
enum CatalogRateCommand: Command {
    static let spec = CommandSpec(
        name: "rate", abstract: "Set a bug's rating and update its rating strip.",
        discussion: """
            RATING is 0 to 5 in steps of 0.5. The bug's outputs are built again right away \
            (its rating strip changes), unless --no-build is given.

            Example:
              thumbkit catalog rate 3 3.5
            """,
        positionals: [
            .required("id", help: "The bug: N or bug:N."),
            .required("rating", help: "0 to 5 in steps of 0.5."),
        ],
        options: CatalogOptions.changeAndRebuild)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let ref = try CatalogOptions.record(arguments.argument("id")!)
        guard ref.kind == .bug else { throw UsageError.validationFailed("only bugs have ratings, not \(ref)") }
        let text = arguments.argument("rating")!
        guard let value = Double(text), let rating = Rating(exactly: value) else {
            throw UsageError.validationFailed("invalid rating '\(text)': expected 0 to 5 in steps of 0.5")
        }
        let store = try CatalogOptions.openStore(arguments)
        defer { store.close() }
        let change = try CatalogOptions.change(arguments, store: store) { tx in
            let bug = try tx.rate(bugID: ref.id, rating: rating.value)
            return (bug, .bug(bug, created: false))
        }
        let bug = change.value
        context.print("bug:\(bug.id) \(Terminal.oneLine(bug.title)): rating \(bug.rating)")
        return ExitCode(failureCount: try CatalogOptions.rebuild(change, arguments, store: store, context: context))
    }
}
