import Foundation
import ThumbKitCatalog

/// `thumbkit catalog set-image ID PATH`: the Scary Bugs "change picture" flow.
enum CatalogSetImageCommand: Command {
    static let spec = CommandSpec(
        name: "set-image", abstract: "Change a record's picture, remake its outputs and delete the old ones.",
        discussion: """
            PATH must be a PNG or JPEG file; it is hashed and stored as an absolute path. The \
            record's outputs are built again from it right away and the old files removed, \
            unless --no-build is given.
            """,
        positionals: [
            .required("id", help: "The record: N or bug:N for a bug, food:N for a food."),
            .required("path", help: "The new image."),
        ],
        options: [
            CatalogOptions.catalog, CatalogOptions.out, CatalogOptions.recipes,
            .flag("no-build", help: "Only change the record; build later."),
        ])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let ref = try CatalogOptions.record(arguments.argument("id")!)
        let path = URL(fileURLWithPath: arguments.argument("path")!).standardizedFileURL.path
        try CatalogOptions.requireImage(path)
        let store = try CatalogOptions.openStore(arguments)
        switch ref.kind {
        case .bug:
            let bug = try store.setImage(bugID: ref.id, path: path)
            context.print("bug:\(bug.id) \(CatalogListCommand.oneLine(bug.title)): image \(path)")
        default:
            let food = try store.setImage(foodID: ref.id, path: path)
            context.print("food:\(food.id) \(CatalogListCommand.oneLine(food.name)): image \(path)")
        }
        if arguments.flag("no-build") { return .success }
        return ExitCode(failureCount: try CatalogOptions.rebuild(ref, arguments, store: store, context: context))
    }
}
