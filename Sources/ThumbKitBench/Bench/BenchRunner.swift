// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// Times tools on the same work, taking turns: after a warm-up round, round *k* runs every
/// entry of a group once (A B C, A B C, …), so a machine that drifts (thermal limits, a
/// neighbour's build) hurts every tool alike. Each run writes into a fresh, empty folder; the
/// last run's folder is kept for quality scoring, the earlier ones are removed. An entry may set
/// each run's folder up before the clock starts and check it after the clock stops.
///
/// Runs are blocking and sequential: one tool at a time has the machine.
package struct BenchRunner: Sendable {
    /// One tool on one piece of work.
    package struct Entry: Sendable {
        /// Names the work (`bug-thumb/jpeg`); also the output sub-folder.
        package let key: String
        /// Names the tool (`thumbkit`).
        package let tool: String
        /// The processes of one run, writing into the given (fresh) output folder.
        package let workload: @Sendable (_ outputFolder: String) -> BenchWorkload
        /// Untimed set-up of each run's fresh folder before its processes start (the catalog
        /// build copies its database there). A throw fails the run without starting it.
        package let prepare: @Sendable (_ outputFolder: String) throws -> Void
        /// Untimed check of each successful run once its processes have ended, from its folder
        /// and log: one line per problem (the catalog build checks it was a full build).
        package let verify: @Sendable (_ outputFolder: String, _ log: String) -> [String]

        package init(
            key: String, tool: String, prepare: @escaping @Sendable (_ outputFolder: String) throws -> Void = { _ in },
            verify: @escaping @Sendable (_ outputFolder: String, _ log: String) -> [String] = { _, _ in [] },
            workload: @escaping @Sendable (_ outputFolder: String) -> BenchWorkload
        ) {
            self.key = key
            self.tool = tool
            self.prepare = prepare
            self.verify = verify
            self.workload = workload
        }

        /// One run in `output` (already created and empty), logging to `log`: the untimed
        /// preparation, the timed processes, then the untimed check.
        func run(output: String, log: String) -> BenchMeasurement {
            do {
                try prepare(output)
            } catch {
                return BenchMeasurement(
                    wallSeconds: 0, cpuSeconds: 0, peakRSSBytes: 0, failures: ["cannot prepare the run: \(error)"])
            }
            var measurement = workload(output).run(logPath: log)
            if measurement.succeeded {
                measurement.failures += verify(output, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
            }
            return measurement
        }
    }

    /// The timed runs of one entry.
    package struct Timing: Sendable {
        package let key: String
        package let tool: String
        /// Every timed run (the warm-up is not among them).
        package let runs: [BenchMeasurement]
        /// The last run's output folder (kept).
        package let outputFolder: String
        /// The log of the last failing run, when any failed (every process's stdout and stderr).
        package let failureLog: String?

        /// Each distinct failure line, in order of first appearance.
        package var failures: [String] {
            var seen = Set<String>()
            return runs.flatMap(\.failures).filter { seen.insert($0).inserted }
        }
    }

    /// Timed runs per entry (at least 1).
    package let runs: Int
    /// Untimed runs per entry before the timed ones.
    package let warmupRuns: Int
    /// Where the output folders and logs go.
    package let workFolder: String

    package init(runs: Int, warmupRuns: Int = 1, workFolder: String) {
        precondition(runs >= 1, "At least one timed run.")
        precondition(warmupRuns >= 0, "Warm-up runs cannot be negative.")
        self.runs = runs
        self.warmupRuns = warmupRuns
        self.workFolder = workFolder
    }

    /// Runs each group in turn, alternating between its entries round by round.
    ///
    /// - Parameter progress: called before each run with `(done, total, entry)`.
    package func run(
        _ groups: [[Entry]], progress: (_ done: Int, _ total: Int, _ entry: Entry) -> Void = { _, _, _ in }
    ) -> [Timing] {
        let rounds = warmupRuns + runs
        let total = groups.reduce(0) { $0 + $1.count } * rounds
        var done = 0
        var timings: [Timing] = []
        for group in groups {
            var measured = [[BenchMeasurement]](repeating: [], count: group.count)
            var lastFolder = [String?](repeating: nil, count: group.count)
            var failureLog = [String?](repeating: nil, count: group.count)
            for round in 0..<rounds {
                for (index, entry) in group.enumerated() {
                    progress(done, total, entry)
                    done += 1
                    let base = folder(for: entry)
                    let name = round < warmupRuns ? "warmup-\(round + 1)" : "run-\(round - warmupRuns + 1)"
                    let output = (base as NSString).appendingPathComponent(name)
                    let log = output + ".log"
                    try? FileManager.default.removeItem(atPath: output)
                    try? FileManager.default.removeItem(atPath: log)
                    try? FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
                    let measurement = entry.run(output: output, log: log)
                    if let previous = lastFolder[index] {
                        try? FileManager.default.removeItem(atPath: previous)
                        try? FileManager.default.removeItem(atPath: previous + ".log")
                    }
                    lastFolder[index] = output
                    if !measurement.succeeded {
                        failureLog[index] = try? String(contentsOfFile: log, encoding: .utf8)
                    }
                    if round >= warmupRuns { measured[index].append(measurement) }
                }
            }
            for (index, entry) in group.enumerated() {
                timings.append(
                    Timing(
                        key: entry.key, tool: entry.tool, runs: measured[index],
                        outputFolder: lastFolder[index] ?? folder(for: entry), failureLog: failureLog[index]))
            }
        }
        return timings
    }

    /// `workFolder/<key>/<tool>`, with `/` in the key made safe.
    func folder(for entry: Entry) -> String {
        let key = entry.key.replacingOccurrences(of: "/", with: "-")
        return ((workFolder as NSString).appendingPathComponent(key) as NSString).appendingPathComponent(entry.tool)
    }
}
