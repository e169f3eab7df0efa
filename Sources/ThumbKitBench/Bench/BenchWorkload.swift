// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// The processes one timed run of one tool starts, and how many run at once: one process for a
/// tool that threads itself, halves of the file list for `mogrify`, one process per file for
/// `djpeg`.
package struct BenchWorkload: Sendable, Hashable {
    /// Every process, in the order they are started.
    package var invocations: [BenchInvocation]
    /// How many run at the same time (each lane takes the next process when its last ends).
    package var lanes: Int

    package init(invocations: [BenchInvocation], lanes: Int = 1) {
        precondition(!invocations.isEmpty, "A workload needs at least one process.")
        precondition(lanes >= 1, "A workload needs at least one lane.")
        self.invocations = invocations
        self.lanes = min(lanes, invocations.count)
    }

    /// Runs every process and measures the whole: wall time from the first start to the last
    /// end, CPU time summed, peak RSS of the largest process. Each process's output is appended
    /// to `logPath`. Blocks until all have ended; lanes are real threads, so a lane waiting in
    /// `wait4` never holds back another.
    package func run(logPath: String? = nil) -> BenchMeasurement {
        let results = Locked<[Int: Result<ProcessTimer.Measurement, ProcessTimer.LaunchError>]>([:])
        let invocations = self.invocations
        let start = DispatchTime.now().uptimeNanoseconds
        WorkQueue.forEach(invocations.count, workers: lanes, lanes: .threads) { index in
            let invocation = invocations[index]
            let result: Result<ProcessTimer.Measurement, ProcessTimer.LaunchError>
            do {
                result = .success(
                    try ProcessTimer.run(
                        invocation.arguments, outputPath: logPath, workingDirectory: invocation.workingDirectory))
            } catch let error as ProcessTimer.LaunchError {
                result = .failure(error)
            } catch {
                result = .failure(ProcessTimer.LaunchError(description: String(describing: error)))
            }
            results.withLock { $0[index] = result }
        }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        var cpu = 0.0
        var peak = 0
        var failures: [String] = []
        let finished = results.withLock { $0 }
        for index in invocations.indices {
            switch finished[index] {
            case .success(let measurement):
                cpu += measurement.cpuSeconds
                peak = max(peak, measurement.peakRSSBytes)
                if measurement.exitStatus != 0 {
                    failures.append("exit status \(measurement.exitStatus): \(invocations[index].commandLine)")
                }
            case .failure(let error):
                failures.append(error.description)
            case nil:
                failures.append("never started: \(invocations[index].commandLine)")
            }
        }
        return BenchMeasurement(wallSeconds: wall, cpuSeconds: cpu, peakRSSBytes: peak, failures: failures)
    }
}
