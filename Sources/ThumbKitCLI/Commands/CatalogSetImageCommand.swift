// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitCatalog

/// `thumbkit catalog set-image ID PATH`: the Scary Bugs "change picture" flow.
enum CatalogSetImageCommand: Command {
    static let spec = CommandSpec(
        name: "set-image", abstract: "Change a record's picture, remake its outputs and delete the old ones.",
        discussion: """
            PATH must be a PNG, JPEG, WebP, HEIC or AVIF file that decodes within the limits \
            (checked as 'watch' \
            checks an inbox file); it is hashed and stored as an absolute path. A picture that \
            fails the check changes nothing (the old picture and outputs stay) and exits 1 with \
            the reason. The record's outputs are built again from it right away and the old \
            files removed, unless --no-build is given.
            """,
        positionals: [
            .required("id", help: "The record: N or bug:N for a bug, food:N for a food."),
            .required("path", help: "The new image."),
        ],
        options: CatalogOptions.changeAndRebuild)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let ref = try CatalogOptions.record(arguments.argument("id")!)
        let path = URL(fileURLWithPath: arguments.argument("path")!).standardizedFileURL.path
        let store = try CatalogOptions.openStore(arguments)
        defer { store.close() }
        // Checked and hashed before the catalog is touched; the hash is of the bytes checked.
        let image = try SourceImage.load(path: path)
        let change = try CatalogOptions.change(arguments, store: store) { tx in
            switch ref.kind {
            case .bug:
                let bug = try tx.setImage(bugID: ref.id, image: image)
                return ("bug:\(bug.id) \(Terminal.oneLine(bug.title))", .bug(bug, created: false))
            default:
                let food = try tx.setImage(foodID: ref.id, image: image)
                return ("food:\(food.id) \(Terminal.oneLine(food.name))", .food(food, created: false))
            }
        }
        context.print("\(change.value): image \(path)")
        return ExitCode(failureCount: try CatalogOptions.rebuild(change, arguments, store: store, context: context))
    }
}
