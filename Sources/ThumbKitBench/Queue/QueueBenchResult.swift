// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitCatalog

/// What one queue bench run measured: `records` no-op records drained by `workers` worker
/// processes, over the window from the moment the records were queued (and the paused workers
/// let go) to the last `built` event.
public struct QueueBenchResult: Sendable, Codable, Hashable {
    /// `sqlite` or `postgresql`.
    public var backend: String
    public var workers: Int
    /// Records each claim takes (`thumbkit worker --batch`), at first and at most (claims grow
    /// while records are quick, `BuildWorker.Options.batchLimit`; equal for a given `--batch`).
    public var batch: Int
    public var batchLimit: Int
    /// Records queued.
    public var records: Int
    /// Records built at least once.
    public var built: Int
    /// Records built more than once (0 unless the queue is broken).
    public var duplicates: Int
    /// `failed` and `lost` events (0 in a healthy run).
    public var failed: Int
    public var lost: Int
    /// Rows left in the queue, and output rows, after the workers stopped.
    public var queueLeft: Int
    public var outputRows: Int
    /// The measured window, in seconds.
    public var seconds: Double
    public var recordsPerSecond: Double
    /// Write transactions the workers committed in the window (claims, record commits, lease
    /// renewals, finishes), and per second.
    public var commits: Int
    public var commitsPerSecond: Double
    /// Claims that took rows in the window, and their latency (the worker's whole `claim` call:
    /// lock wait, statements, commit).
    public var claims: Int
    public var claimP50Ms: Double?
    public var claimP99Ms: Double?
    /// Time the workers' write transactions spent taking the catalog's write lock in the window
    /// (summed over workers), per record, and as a share of the workers' time.
    public var lockWaitMs: Double
    public var lockWaitPerRecordMs: Double
    public var lockWaitShare: Double
    /// Top-level statements per record from `pg_stat_statements`, or nil (`statementsNote`
    /// says why).
    public var statementsPerRecord: Double?
    public var statementsNote: String?
    /// The folder and (PostgreSQL) schema the run made and removed.
    public var folder: String
    public var schema: String?

    /// The nearest-rank `p` percentile (0–100) of `values`, or nil when empty.
    static func percentile(_ p: Double, of values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }

    /// Fills in the window's figures from the workers' samples.
    mutating func measure(_ stats: [QueueMeter.Snapshot], from start: Double, to end: Double) {
        func inWindow(_ sample: QueueMeter.Sample) -> Bool { sample.at >= start && sample.at <= end }
        let claimSamples = stats.flatMap(\.claims).filter(inWindow)
        let waits = stats.flatMap(\.lockWaits).filter(inWindow)
        seconds = max(end - start, 1e-6)
        recordsPerSecond = Double(built) / seconds
        commits = stats.flatMap(\.commits).filter(inWindow).count
        commitsPerSecond = Double(commits) / seconds
        claims = claimSamples.count
        claimP50Ms = Self.percentile(50, of: claimSamples.map(\.ms))
        claimP99Ms = Self.percentile(99, of: claimSamples.map(\.ms))
        lockWaitMs = waits.reduce(0) { $0 + $1.ms }
        lockWaitPerRecordMs = built > 0 ? lockWaitMs / Double(built) : 0
        lockWaitShare = lockWaitMs / 1000 / (seconds * Double(max(1, workers)))
    }
}

/// A queue bench: its settings, the machine's load when it began, and one result per worker
/// count.
public struct QueueBenchReport: Sendable, Codable, Hashable {
    /// The catalog given (`sqlite`, or the server's URL with any password redacted).
    public var catalog: String
    /// `/proc/loadavg`'s first three fields when the bench began and ended.
    public var loadBefore: String?
    public var loadAfter: String?
    public var results: [QueueBenchResult]

    /// The results as a table, one row per worker count.
    public var table: String {
        func number(_ value: Double?, _ digits: Int = 1) -> String {
            value.map { String(format: "%.\(digits)f", $0) } ?? "n/a"
        }
        var lines = [
            "catalog: \(catalog); load \(loadBefore ?? "?") before, \(loadAfter ?? "?") after",
            "workers  batch  records  seconds  records/s  commits/s  claim p50 ms  claim p99 ms  "
                + "lock wait ms/record  lock wait share  statements/record",
        ]
        for result in results {
            let cells = [
                "\(result.workers)",
                result.batch == result.batchLimit ? "\(result.batch)" : "\(result.batch)-\(result.batchLimit)",
                "\(result.built)/\(result.records)", number(result.seconds, 2),
                number(result.recordsPerSecond), number(result.commitsPerSecond), number(result.claimP50Ms, 2),
                number(result.claimP99Ms, 2), number(result.lockWaitPerRecordMs, 2),
                String(format: "%.0f %%", result.lockWaitShare * 100), number(result.statementsPerRecord),
            ]
            let widths = [7, 5, 11, 7, 9, 9, 12, 12, 19, 15, 17]
            lines.append(
                zip(cells, widths).map { String(repeating: " ", count: max(0, $1 - $0.count)) + $0 }.joined(
                    separator: "  "))
        }
        let notes = Set(results.compactMap(\.statementsNote))
        lines += notes.sorted().map { "statements/record n/a: \($0)" }
        return lines.joined(separator: "\n")
    }
}
