// SPDX-License-Identifier: Apache-2.0
import ThumbKitBench
import ThumbKitCatalog
import ThumbKitQuality

/// `thumbkit demo DIR`: draw the demo catalog's pictures and write its import file.
enum DemoCommand: Command {
    static let spec = CommandSpec(
        name: "demo", abstract: "Write a demo catalog (generated pictures and catalog.json) into a folder.",
        discussion: """
            Draws eight bugs on leaves (rated 0.5 to 5, some with half stars), eighteen dishes \
            in six categories (Chicken, Beef, Pork, Seafood, Pasta, Salad), two star icons and \
            a logo, all from shapes and gradients, and writes the import file catalog.json that \
            lists them. scripts/run uses it:

              thumbkit demo TestImages/generated/demo
              thumbkit catalog import TestImages/generated/demo/catalog.json
              thumbkit build && thumbkit site site

            A folder that is not empty is refused unless the demo made it: the demo records \
            the files it wrote in DIR/.thumbkit-demo, and running it again replaces only those \
            (a file changed since is refused, nothing else in the folder is touched).
            """,
        positionals: [
            .required("dir", help: "The folder to write into: new, empty, or one an earlier 'thumbkit demo' made.")
        ])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        context.print(try DemoCatalog.write(into: arguments.argument("dir")!))
        return .success
    }
}
