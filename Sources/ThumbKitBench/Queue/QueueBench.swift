// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// `thumbkit bench queue`: how fast the build queue itself goes, with the image work taken out.
///
/// For each worker count it makes a fresh catalog (`QueueBenchScratch`: a temporary folder,
/// and on PostgreSQL a schema of its own), starts that many real `thumbkit worker` processes
/// (`-j 1`, `--json --queue-stats`), waits until every one has started and gone idle (their
/// planning pass and start-up are outside the measure), pauses them (SIGSTOP), queues
/// `records` foods in one transaction, each with one 16×16 source and one 8×8 PNG recipe (the
/// cheapest record that still goes the whole way: claim, build, fenced commit of one output
/// row, settle), lets them go (SIGCONT) and measures until the last record is built. Then it
/// stops them with SIGTERM, checks the queue is empty and every record has its output row, and
/// removes the folder and the schema.
public struct QueueBench: Sendable {
    /// What to run.
    public struct Options: Sendable {
        /// The `thumbkit` executable whose `worker` is measured.
        public var executable: String
        /// A `postgres://` URL of the database to make the schema in, or nil for SQLite.
        public var server: String?
        /// The folder each run makes its own folder in (the SQLite catalog, the outputs).
        public var parent: String
        public var records: Int
        /// One run per worker count, in this order.
        public var workers: [Int]
        /// `--batch` of the workers (nil: theirs, `-j 1`'s default of 4 × 1, growing to 64).
        public var batch: Int?
        /// `--poll` of the workers, in seconds.
        public var poll: Double
        /// How long one run may take before it is given up.
        public var timeout: Double

        public init(
            executable: String, server: String?, parent: String = NSTemporaryDirectory(), records: Int, workers: [Int],
            batch: Int? = nil, poll: Double = 0.1,
            timeout: Double = 1800
        ) {
            self.executable = executable
            self.server = server
            self.parent = parent
            self.records = records
            self.workers = workers
            self.batch = batch
            self.poll = poll
            self.timeout = timeout
        }
    }

    public let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// Runs every worker count; `progress` gets a line as each run starts.
    public func run(progress: (String) -> Void = { _ in }) throws -> QueueBenchReport {
        var report = QueueBenchReport(
            catalog: try options.server.map { try CatalogLocation(parsing: $0).redacted } ?? "sqlite",
            loadBefore: Self.load(), loadAfter: nil, results: [])
        for workers in options.workers {
            progress("\(options.records) records, \(workers) worker\(workers == 1 ? "" : "s")…")
            report.results.append(try run(workers: workers))
        }
        report.loadAfter = Self.load()
        return report
    }

    /// The first three fields of `/proc/loadavg`.
    static func load() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// One run with `workers` workers, on a catalog of its own that is removed afterwards.
    func run(workers: Int) throws -> QueueBenchResult {
        let scratch = try QueueBenchScratch(server: options.server, parent: options.parent)
        defer { scratch.remove() }
        let statements = QueueBenchStatements(scratch)
        let fleet = try QueueBenchFleet(
            executable: options.executable, arguments: workerArguments(scratch), count: workers)
        var stopped = false
        defer { if !stopped { fleet.stop(grace: 5) } }

        guard fleet.events.waitIdle(workers, until: Date().addingTimeInterval(120)) else {
            throw failure("the workers did not all start and go idle", fleet)
        }
        try queueRecords(scratch, fleet: fleet)
        let before = statements.count()
        let start = Date().timeIntervalSince1970
        fleet.signal(SIGCONT)
        let drained = fleet.events.waitBuilt(options.records, until: Date().addingTimeInterval(options.timeout))
        let after = statements.count()
        fleet.stop()
        stopped = true
        guard drained else { throw failure("the workers did not build every record", fleet) }

        let gathered = fleet.events.summary
        let counts = try scratch.counts()
        var result = QueueBenchResult(
            backend: scratch.schema == nil ? "sqlite" : "postgresql", workers: workers,
            batch: options.batch ?? BuildWorker.Options.defaultBatch(jobs: 1),
            batchLimit: options.batch ?? BuildWorker.Options.defaultBatchLimit(jobs: 1),
            records: options.records, built: gathered.built, duplicates: gathered.duplicates,
            failed: gathered.failed, lost: gathered.lost, queueLeft: counts.queue, outputRows: counts.outputs,
            seconds: 0, recordsPerSecond: 0, commits: 0, commitsPerSecond: 0, claims: 0, lockWaitMs: 0,
            lockWaitPerRecordMs: 0, lockWaitShare: 0, statementsNote: statements.unavailable, folder: scratch.folder,
            schema: scratch.schema)
        result.measure(gathered.stats, from: start, to: gathered.lastBuilt ?? start)
        if let before, let after, gathered.built > 0 {
            result.statementsPerRecord = Double(after - before) / Double(gathered.built)
        }
        return result
    }

    /// The arguments of each worker on `scratch`'s catalog.
    func workerArguments(_ scratch: QueueBenchScratch) -> [String] {
        var arguments = [
            "worker", "--catalog", scratch.catalog, "--out", scratch.out, "-j", "1", "--json", "--queue-stats",
            "--poll", "\(options.poll)",
        ]
        if let batch = options.batch { arguments += ["--batch", "\(batch)"] }
        return arguments
    }

    /// Queues the records while the workers are paused. A worker paused inside a write
    /// transaction would hold the write lock (the insert then meets `CatalogError.locked` after
    /// its one-second busy or lock timeout): the workers go on for a moment and it is tried
    /// again.
    private func queueRecords(_ scratch: QueueBenchScratch, fleet: QueueBenchFleet) throws {
        for attempt in 1...20 {
            fleet.signal(SIGSTOP)
            do {
                try scratch.addRecords(options.records)
                return
            } catch CatalogError.locked(_, _) where attempt < 20 {
                fleet.signal(SIGCONT)
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    private func failure(_ what: String, _ fleet: QueueBenchFleet) -> BenchError {
        let gathered = fleet.events.summary
        let statuses = fleet.failures.map { "exit \($0)" }
        let notes = (statuses + gathered.notes).joined(separator: "; ")
        return BenchError.queue(
            subject: "bench queue",
            reason: "\(what) (\(gathered.built) of \(options.records) built)" + (notes.isEmpty ? "" : ": \(notes)"))
    }
}
