// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// What one process's use of the build queue cost, as `thumbkit bench queue` reads it from each
/// `thumbkit worker --queue-stats`: each claim's latency, each write transaction's wait for the
/// catalog's write lock, and when each write transaction committed. Every sample carries its
/// wall-clock time (epoch seconds), so the bench keeps only those inside its measured window
/// (workers on one host share the clock).
package final class QueueMeter: WriteTransactionObserver {
    /// One timed event.
    package struct Sample: Sendable, Codable, Hashable {
        /// When it ended (epoch seconds).
        package var at: Double
        /// How long it took, in milliseconds.
        package var ms: Double
        /// Rows a claim took (1 for a lock wait or a commit).
        package var rows: Int

        package init(at: Double, ms: Double, rows: Int = 1) {
            self.at = at
            self.ms = ms
            self.rows = rows
        }
    }

    /// Everything measured so far.
    package struct Snapshot: Sendable, Codable, Hashable {
        /// Claims that took at least one row (an idle worker's empty claims are left out).
        package var claims: [Sample] = []
        /// Each outermost write transaction's wait for the write lock.
        package var lockWaits: [Sample] = []
        /// Each committed write transaction (`ms` 0).
        package var commits: [Sample] = []

        package init() {}
    }

    /// Guards the samples; every method appends or copies under it.
    private let state = Locked(Snapshot())

    package init() {}

    private static func now() -> Double { Date().timeIntervalSince1970 }

    private static func milliseconds(_ duration: Duration) -> Double {
        duration.seconds * 1000
    }

    /// A claim that took `rows` rows in `duration`.
    package func claimed(rows: Int, in duration: Duration) {
        guard rows > 0 else { return }
        let sample = Sample(at: Self.now(), ms: Self.milliseconds(duration), rows: rows)
        state.withLock { $0.claims.append(sample) }
    }

    package func writeLockTaken(after wait: Duration) {
        let sample = Sample(at: Self.now(), ms: Self.milliseconds(wait))
        state.withLock { $0.lockWaits.append(sample) }
    }

    package func writeCommitted() {
        let sample = Sample(at: Self.now(), ms: 0)
        state.withLock { $0.commits.append(sample) }
    }

    /// A copy of every sample so far.
    package var snapshot: Snapshot { state.withLock { $0 } }
}
