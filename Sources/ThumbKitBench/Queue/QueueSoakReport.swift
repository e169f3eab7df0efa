// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What `QueueSoak` measured.
public struct QueueSoakReport: Codable, Sendable {
    /// One part of the run.
    public struct Phase: Codable, Sendable {
        /// `before`, `during` or `after` the held snapshot.
        public var phase: String
        public var records: Int
        public var seconds: Double
        public var recordsPerSecond: Double
        /// `n_dead_tup` of `build_queue` at the part's end.
        public var deadTuples: Int
        /// `n_dead_tup` after a `VACUUM build_queue` at the part's end: the dead rows vacuum
        /// could not remove.
        public var deadTuplesAfterVacuum: Int
    }

    public var workers: Int
    public var records: Int
    public var phases: [Phase]
    /// Records built at least once, built more than once, failed and lost events.
    public var built: Int
    public var duplicates: Int
    public var failed: Int
    public var lost: Int
    /// Rows left in the queue, output rows at the end.
    public var queueLeft: Int
    public var outputRows: Int
    /// The schema the run made (dropped afterwards).
    public var schema: String

    /// Whether every record was built exactly once and nothing was left or lost.
    public var isHealthy: Bool {
        built == records && duplicates == 0 && lost == 0 && failed == 0 && queueLeft == 0 && outputRows == records
    }

    /// A plain-text table.
    public var table: String {
        var lines = ["phase    records  records/s  n_dead_tup  after VACUUM"]
        for phase in phases {
            lines.append(
                phase.phase.padding(toLength: 9, withPad: " ", startingAt: 0)
                    + String(phase.records).leftPadded(7) + String(format: "%11.1f", phase.recordsPerSecond)
                    + String(phase.deadTuples).leftPadded(12) + String(phase.deadTuplesAfterVacuum).leftPadded(14))
        }
        lines.append(
            "\(workers) worker(s), \(built) of \(records) built, \(duplicates) twice, \(lost) lost, "
                + "\(queueLeft) left in the queue")
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// Right-aligned in `width` columns.
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
