// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality
/// What one timed run of one tool cost, over all its processes.
package struct BenchMeasurement: Sendable, Hashable, Codable {
    /// From the first process's start to the last one's end.
    package var wallSeconds: Double
    /// User + system CPU time of every process (and the children each waited for).
    package var cpuSeconds: Double
    /// The largest peak resident set of any one process (its own `ru_maxrss`, measured through
    /// GNU time: see ``ProcessTimer``; 0 when unknown). For a tool
    /// that runs several processes at once, the whole tool used up to that many times this.
    package var peakRSSBytes: Int
    /// One line per process that failed to start or exited with a failure.
    package var failures: [String]

    package init(wallSeconds: Double, cpuSeconds: Double, peakRSSBytes: Int, failures: [String] = []) {
        self.wallSeconds = wallSeconds
        self.cpuSeconds = cpuSeconds
        self.peakRSSBytes = peakRSSBytes
        self.failures = failures
    }

    /// Whether every process ran and succeeded.
    package var succeeded: Bool { failures.isEmpty }
}
