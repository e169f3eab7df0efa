import Foundation
import ThumbKitCatalog

/// `thumbkit build`: make every output the catalog's records need.
enum BuildCommand: Command {
    static let spec = CommandSpec(
        name: "build", abstract: "Make the catalog's thumbnails, detail images, rating strips and app icons.",
        discussion: """
            Makes what is missing or stale (the source's hash or the recipe changed), removes \
            outputs no recipe wants any more, and does nothing the second time. Records are \
            built in parallel; a record that fails is reported on stderr and the others are \
            still done. Output files are named <record folder>/<recipe>.<tag>[@Nx].<ext>, the \
            tag changing with the source and recipe. --recipes FILE is stored in the catalog and \
            used by later builds until another is given; --recipes builtin goes back to the \
            built-in recipes. The output folder must hold no source picture; the first build \
            claims it for its catalog (OUT/.thumbkit-catalog), and a build of another catalog is \
            refused there. Only files named as outputs are ever removed. Progress is shown on stderr when it is a \
            terminal; with --json the summary (made, upToDate, removed, failed, failures) is the \
            only thing on stdout.

            Examples:
              thumbkit build
              thumbkit build --catalog demo.sqlite --out demo-out -j 4 --json
            """,
        options: [CatalogOptions.catalog, CatalogOptions.out, CatalogOptions.recipes, CatalogOptions.jobs, .json])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let jobs = try arguments.int("jobs", in: 1...256)
        let store = try CatalogOptions.openStore(arguments)
        let builder = try CatalogOptions.builder(arguments, store: store, jobs: jobs)
        let progress = context.progress
        let report = builder.build(
            progress: { done, total in progress.update("[\(done)/\(total)] building") },
            onFailure: { context.printError($0) }, onNote: { context.printError($0) })
        progress.finish()
        if arguments.flag("json") {
            try context.writeJSON(report)
        } else {
            context.print(report.summary)
        }
        return ExitCode(failureCount: report.failed)
    }
}
