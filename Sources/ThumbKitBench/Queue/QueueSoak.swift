// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitCatalog

/// `thumbkit bench queue --soak`: what a long-open snapshot does to the build queue on
/// PostgreSQL. Real `thumbkit worker` processes (the first `--workers` count) drain `records`
/// foods in three equal parts, each queued in one transaction and drained before the next:
/// before, during and after a `REPEATABLE READ` transaction held open on a connection of its own
/// (it ran one `SELECT`, so its snapshot is taken). Vacuum cannot remove a row version that
/// snapshot may see, so the queue's dead rows pile up while it is open. Reported per part: its
/// records/s (from its queueing commit to its last `built` event) and `n_dead_tup` of
/// `build_queue` at its end (`pg_stat_user_tables`, read once the workers' statistics are
/// flushed: see `deadTuples`), then again after a `VACUUM build_queue` (what vacuum could not
/// remove: the rows the snapshot may still see). Each part starts on a vacuumed table. Then the same checks as a bench run: nothing lost, none twice.
public struct QueueSoak: Sendable {
    /// The bench's options (`server` must be a PostgreSQL URL; `workers.first` workers).
    public let options: QueueBench.Options

    public init(options: QueueBench.Options) {
        self.options = options
    }

    /// The three parts, in order.
    static let phases = ["before", "during", "after"]

    /// Runs the soak; `progress` gets a line as each part starts.
    public func run(progress: (String) -> Void = { _ in }) throws -> QueueSoakReport {
        guard let server = options.server else {
            throw BenchError.queue(subject: "--soak", reason: "needs a PostgreSQL --catalog (postgres://…)")
        }
        let workers = options.workers.first ?? 1
        let bench = QueueBench(options: options)
        let scratch = try QueueBenchScratch(server: server, parent: options.parent)
        defer { scratch.remove() }
        let fleet = try QueueBenchFleet(
            executable: options.executable, arguments: bench.workerArguments(scratch), count: workers)
        var stopped = false
        defer { if !stopped { fleet.stop(grace: 5) } }
        guard fleet.events.waitIdle(workers, until: Date().addingTimeInterval(120)) else {
            throw BenchError.queue(subject: "bench queue --soak", reason: "the workers did not all start and go idle")
        }
        var report = QueueSoakReport(
            workers: workers, records: options.records, phases: [], built: 0, duplicates: 0, failed: 0, lost: 0,
            queueLeft: 0, outputRows: 0, schema: scratch.schema ?? "")
        var queued = 0
        var snapshot: HeldSnapshot?
        for (index, phase) in Self.phases.enumerated() {
            progress("\(phase) the snapshot…")
            if phase == "during" { snapshot = try HeldSnapshot(catalog: scratch.catalog) }
            if phase == "after" { try snapshot?.end() }
            let count = index == Self.phases.count - 1 ? options.records - queued : options.records / 3
            try scratch.addRecords(count, from: queued)
            let start = Date().timeIntervalSince1970
            queued += count
            guard fleet.events.waitBuilt(queued, until: Date().addingTimeInterval(options.timeout)) else {
                throw BenchError.queue(
                    subject: "bench queue --soak",
                    reason: "the workers did not build every record \(phase) the snapshot")
            }
            let seconds = max((fleet.events.summary.lastBuilt ?? start) - start, 1e-6)
            let dead = try Self.deadTuples(scratch.store)
            try PostgresAdmin.execute("VACUUM build_queue", url: scratch.catalog)
            report.phases.append(
                .init(
                    phase: phase, records: count, seconds: seconds, recordsPerSecond: Double(count) / seconds,
                    deadTuples: dead, deadTuplesAfterVacuum: try Self.deadTuples(scratch.store)))
        }
        try snapshot?.end()
        fleet.stop()
        stopped = true
        let gathered = fleet.events.summary
        let counts = try scratch.counts()
        report.built = gathered.built
        report.duplicates = gathered.duplicates
        report.failed = gathered.failed
        report.lost = gathered.lost
        report.queueLeft = counts.queue
        report.outputRows = counts.outputs
        return report
    }

    /// `n_dead_tup` of `build_queue`, once it holds still: a backend flushes its statistics at
    /// the end of a transaction at most once a second, so it is read every half second (the
    /// idle workers' polls end transactions meanwhile) until two readings agree, for at most
    /// ten seconds.
    static func deadTuples(_ store: CatalogStore) throws -> Int {
        var last = -1
        for _ in 0..<20 {
            Thread.sleep(forTimeInterval: 0.5)
            let now = try store.read { tx in
                try tx.db.queryFirst(
                    "SELECT n_dead_tup FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = 'build_queue'"
                ) { $0.int(0) } ?? 0
            }
            if now == last { return now }
            last = now
        }
        return last
    }
}
