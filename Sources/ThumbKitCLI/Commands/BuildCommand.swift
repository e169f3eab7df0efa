// SPDX-License-Identifier: Apache-2.0
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
            terminal; with --json the summary (made, upToDate, removed, failed, failures, planned) is the \
            only thing on stdout. Any number of builds (and 'thumbkit worker's) may run at once on one \
            catalog and output folder: they share the work through the catalog's build queue, each \
            claiming a few records at a time under a lease (--lease), and each prints what it made \
            (docs/scale-out.md). On PostgreSQL a dropped connection is reopened, with backoff, for \
            up to --reconnect-timeout seconds; a build that gives up still prints its summary, \
            with the reason among the failures, and exits 1.

            Examples:
              thumbkit build
              thumbkit build --catalog demo.sqlite --out demo-out -j 4 --json
            """,
        options: [
            CatalogOptions.catalog, CatalogOptions.out, CatalogOptions.recipes, CatalogOptions.jobs, QueueOptions.lease,
            QueueOptions.maxAttempts, QueueOptions.batch, QueueOptions.reconnectTimeout, CommonOptions.json,
        ] + LimitOptions.all)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        // Builds and workers started together plan once: this one may use a planning pass
        // another begins from here on (`CatalogBuilder.planQueue(_:now:since:)`).
        let launched = Date()
        let jobs = try arguments[CatalogOptions.jobs]
        let store = try CatalogOptions.openStore(arguments)
        defer { store.close() }
        try QueueOptions.reconnect(arguments, store: store) { context.printError($0) }
        let builder = try CatalogOptions.builder(arguments, store: store, jobs: jobs)
        let progress = context.progress
        let (report, planned) = try queuedBuild(
            builder, arguments, launched: launched, progress: progress, context: context)
        progress.finish()
        if try arguments[CommonOptions.json] {
            try context.writeJSON(Summary(report: report, planned: planned))
        } else {
            context.print(report.summary)
        }
        return ExitCode(failureCount: report.failed)
    }

    /// A full build through the build queue: plan (queue what is stale), build batches until
    /// nothing is left that this process could take, then sweep (unless the app entry's build,
    /// which sweeps, ran here). Alone, it makes and reports what `CatalogBuilder.build()` would.
    private static func queuedBuild(
        _ builder: CatalogBuilder, _ arguments: ParsedArguments, launched: Date,
        progress: ProgressLine, context: CommandContext
    ) throws -> (BuildReport, planned: Bool) {
        let started = Date()
        let queue = try QueueOptions.queue(arguments, store: builder.store)
        let plan = try planQueue(builder, queue, now: started, launched: launched) { line, attempt in
            context.printError("\(line); planning again (\(attempt + 1) of \(planTries))")
        }
        if let line = plan.refusal {
            context.printError(line)
            return (BuildReport(failed: 1, failures: [line]), plan.planned)
        }
        // As a full build always did: dead writers' temporaries go first (the builds of the
        // queued batches are one-record builds, which never walk the folder).
        try builder.removeStrayTemporaries(now: started)
        let batch = try QueueOptions.batch(arguments, jobs: builder.jobs)
        let worker = BuildWorker(
            builder: builder, queue: queue,
            // A failed record waits for the next build (or a change), not for this one's end.
            options: .init(
                lease: try QueueOptions.lease(arguments), batch: batch.batch, batchLimit: batch.limit,
                retryDelay: .seconds(3600)))
        var done = 0
        var builtApp = false
        var report: BuildReport
        do {
            report = try worker.drain(
                onEvent: { event in
                    done += 1
                    if event.record == "\(RecordRef.app)", event.status != .lost { builtApp = true }
                    progress.update("[\(min(done, plan.queued.count))/\(plan.queued.count)] building")
                },
                onFailure: { context.printError($0) }, onNote: { context.printError($0) })
        } catch let stopped as BuildWorker.Stopped {
            // Given up (the catalog's connection lost for good): the summary still says what
            // was made, with the reason counted as a failure; no sweep without the catalog.
            let line = "\(stopped.error)"
            context.printError(line)
            report = stopped.report
            report.upToDate += plan.upToDate
            report.failures.append(line)
            report.failed += 1
            return (report, plan.planned)
        }
        report.upToDate += plan.upToDate
        if !builtApp { report.removed += try builder.sweepAfterQueue(plan, started: started) }
        return (report, plan.planned)
    }

    /// What `build --json` prints: the report's fields and `planned`, false when this build
    /// used the planning pass of a build started with it (`QueuePlan.planned`): then that pass
    /// counted what was already up to date, and `upToDate` counts only what this build found
    /// current when it came to build it.
    struct Summary: Encodable {
        let report: BuildReport
        let planned: Bool

        private enum Key: String, CodingKey { case planned }

        func encode(to encoder: any Encoder) throws {
            try report.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(planned, forKey: .planned)
        }
    }
}
