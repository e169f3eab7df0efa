// SPDX-License-Identifier: Apache-2.0
import ThumbKitCatalog

/// `thumbkit catalog rename ID NEW`.
enum CatalogRenameCommand: Command {
    static let spec = CommandSpec(
        name: "rename", abstract: "Change a bug's title or a food's name, and rename its outputs.",
        discussion: """
            NEW must not be empty, and no other bug (or food of the same category) may have it. \
            Output files are named after the title, so the record's outputs are built again \
            under the new name right away and the old files removed, unless --no-build is given \
            (then the next build does it).

            Example:
              thumbkit catalog rename 3 "Potato Beetle"
            """,
        positionals: [
            .required("id", help: "The record: N or bug:N for a bug, food:N for a food."),
            .required("new", help: "The new title or name."),
        ],
        options: CatalogOptions.changeAndRebuild)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let ref = try CatalogOptions.record(arguments.argument("id")!)
        let name = arguments.argument("new")!
        let store = try CatalogOptions.openStore(arguments)
        defer { store.close() }
        let change = try CatalogOptions.change(arguments, store: store) { tx in
            switch ref.kind {
            case .bug:
                let old = try tx.requireBug(id: ref.id).title
                let bug = try tx.retitle(bugID: ref.id, title: name)
                return ((old, bug.title), .bug(bug, created: false))
            default:
                let old = try tx.requireFood(id: ref.id).name
                let food = try tx.rename(foodID: ref.id, name: name)
                return ((old, food.name), .food(food, created: false))
            }
        }
        let (old, new) = change.value
        context.print(
            "\(ref.kind.rawValue):\(ref.id) \(Terminal.oneLine(old)) → \(Terminal.oneLine(new))")
        return ExitCode(failureCount: try CatalogOptions.rebuild(change, arguments, store: store, context: context))
    }
}
