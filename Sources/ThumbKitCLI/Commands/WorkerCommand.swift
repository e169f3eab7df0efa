// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// `thumbkit worker`: a long-running builder that serves the catalog's build queue.
enum WorkerCommand: Command {
    static let spec = CommandSpec(
        name: "worker", abstract: "Build records from the catalog's build queue until stopped.",
        discussion: """
            Run any number of workers, on this host or others that see the same catalog, output \
            folder and source pictures at the same paths: each claims a few queued records at a \
            time under a lease, renews it while building, and records a record only while its \
            claim is still its own, so no record is built twice and a crashed worker's records are \
            taken over when its lease runs out. Records are queued by the commands that change them \
            (catalog import, rate, set-image, rename, watch) and by 'thumbkit build'; a worker \
            queues what is stale once when it starts. Idle, it looks at the queue every --poll \
            seconds; on PostgreSQL it also listens for the NOTIFY a queued record sends \
            and starts at once (--poll is then the fallback), and reopens a dropped connection, \
            with backoff, for up to --reconnect-timeout seconds before it exits 1. One line per record on stderr (a JSON object per line with --json); SIGTERM or \
            SIGINT finishes the records in hand, prints the summary on stdout and exits 0. The \
            catalog's stored recipes are used (change them with 'thumbkit build --recipes').

            Examples:
              thumbkit worker --catalog /srv/catalog.sqlite --out /srv/out -j 2
            """,
        options: [
            CatalogOptions.catalog, CatalogOptions.out, CatalogOptions.jobs, QueueOptions.lease,
            poll, QueueOptions.maxAttempts, QueueOptions.batch, QueueOptions.reconnectTimeout, CommonOptions.json,
            queueStats,
        ] + LimitOptions.all)

    /// `--poll SECONDS`.
    static let poll: OptionKey<Double> = .number(
        "poll", valueName: "seconds", in: 0.05...3600, default: 5, help: "How often an idle worker looks at the queue.")

    /// `--queue-stats`.
    static let queueStats: OptionKey<Bool> = .flag(
        "queue-stats",
        help: "On exit, log what the queue cost this worker: each claim's latency, each write transaction's "
            + "wait for the catalog's write lock, and each commit, with their times ('thumbkit bench queue' "
            + "reads it; one 'queue-stats' line, JSON with --json).")

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        // Builds and workers started together plan once: this one may use a planning pass
        // another begins from here on (`CatalogBuilder.planQueue(_:now:since:)`).
        let launched = Date()
        let jobs = try arguments[CatalogOptions.jobs]
        let poll = Duration.milliseconds(Int64((try arguments[poll] * 1000).rounded()))
        let json = try arguments[CommonOptions.json]
        let store = try CatalogOptions.openStore(arguments)
        defer { store.close() }
        let builder = CatalogBuilder(
            store: store, outputDirectory: try arguments[CatalogOptions.out], recipes: try store.recipeBook(),
            jobs: jobs, limits: try LimitOptions.limits(arguments))
        var queue = try QueueOptions.queue(arguments, store: store)
        let meter = try arguments[queueStats] ? QueueMeter() : nil
        if let meter {
            queue.meter = meter
            store.observeWrites(meter)
        }
        let batch = try QueueOptions.batch(arguments, jobs: builder.jobs)
        let worker = BuildWorker(
            builder: builder, queue: queue,
            options: .init(
                lease: try QueueOptions.lease(arguments), batch: batch.batch, batchLimit: batch.limit))
        try QueueOptions.reconnect(arguments, store: store) { [id = worker.id] message in
            log(context, json: json, Line(event: "reconnect", worker: id, error: message))
        }
        let wake = try wakeSource(store, worker: worker.id, context: context, json: json)
        let stop = Locked(false)
        let signals = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                stop.withLock { $0 = true }
                wake.interrupt()
            }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }

        try builder.removeStrayTemporaries()
        let plan = try builder.planQueue(queue, now: Date(), since: launched)
        if let line = plan.refusal {
            context.printError(line)
            return .failure
        }
        log(context, json: json, Line(event: "started", worker: worker.id, queued: plan.queued.count))
        let report = try await serve(worker, wake: wake, poll: poll, stop: stop, context: context, json: json)
        if let stats = meter?.snapshot {
            log(context, json: json, Line(event: "queue-stats", worker: worker.id, stats: stats))
        }
        if json {
            try context.writeJSON(report)
        } else {
            context.print(report.summary)
        }
        return .success
    }

    /// One log line: a record's outcome, the worker starting, or going idle (nothing claimable;
    /// logged once per idle spell, not per poll).
    struct Line: Encodable {
        var event: String
        var worker: String
        var queued: Int? = nil
        var record: String? = nil
        var attempt: Int? = nil
        var error: String? = nil
        var stats: QueueMeter.Snapshot? = nil
    }

    private static func log(_ context: CommandContext, json: Bool, _ line: Line) {
        if json {
            if let text = JSONLine.string(line) { context.stderr.write(text + "\n") }
            return
        }
        var text = line.record.map { "\($0): \(line.event)" } ?? "worker \(line.worker): \(line.event)"
        if let attempt = line.attempt { text += " (attempt \(attempt))" }
        if let queued = line.queued { text += ", \(queued) queued" }
        if let error = line.error { text += ": \(error)" }
        if let stats = line.stats {
            let waited = stats.lockWaits.reduce(0) { $0 + $1.ms }
            text +=
                ": \(stats.claims.count) claims, \(stats.commits.count) commits, "
                + "\(String(format: "%.1f", waited)) ms waiting for the write lock"
        }
        context.printError(text)
    }

    /// PostgreSQL: woken by the catalog's NOTIFY (the poll interval its fallback), logging
    /// each lost connection and reconnection attempt; SQLite: the poll interval alone. Either
    /// way each poll lasts the interval ± 20 %.
    private static func wakeSource(
        _ store: CatalogStore, worker: String, context: CommandContext, json: Bool
    ) throws -> any WakeSource {
        guard case .postgres = store.location else { return JitteredWakeSource(PollingWakeSource()) }
        return JitteredWakeSource(
            try PostgresWakeSource(store: store) { message in
                log(context, json: json, Line(event: "listen", worker: worker, error: message))
            })
    }

    /// Runs the blocking loop on a thread of its own (no task of the cooperative pool parked).
    private static func serve(
        _ worker: BuildWorker, wake: any WakeSource, poll: Duration, stop: Locked<Bool>, context: CommandContext,
        json: Bool
    ) async throws -> BuildReport {
        let result: Result<BuildReport, any Error> = await withCheckedContinuation { continuation in
            let thread = Thread {
                do {
                    let report = try worker.serve(
                        wake: wake, poll: poll, shouldStop: { stop.withLock { $0 } },
                        onEvent: { event in
                            log(
                                context, json: json,
                                Line(
                                    event: event.status.rawValue, worker: event.worker, record: event.record,
                                    attempt: event.attempt, error: event.error))
                        },
                        onFailure: { line in
                            log(context, json: json, Line(event: "failure", worker: worker.id, error: line))
                        },
                        onIdle: { log(context, json: json, Line(event: "idle", worker: worker.id)) })
                    continuation.resume(returning: .success(report))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = "thumbkit-worker"
            thread.start()
        }
        return try result.get()
    }
}
