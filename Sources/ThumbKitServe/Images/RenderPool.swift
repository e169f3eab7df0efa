// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// ThumbKit's own bounded pool for renders: `workers` threads of its own (never the HTTP
/// server's threads, never Swift's cooperative pool, which CPU-bound decodes would starve), and
/// at most `queueLimit` renders waiting for one. A render offered beyond that is refused at once
/// (the server answers 429), so a burst costs memory for the queue's closures only.
package final class RenderPool: Sendable {
    /// The number of threads, and the number of renders allowed to wait.
    package let workers: Int
    package let queueLimit: Int
    /// The threads; they refuse a job once `workers + queueLimit` run or wait.
    private let threads: WorkerThreads

    package init(workers: Int, queueLimit: Int) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
        threads = WorkerThreads(
            count: self.workers, name: "tk-render", capacity: self.workers + self.queueLimit)
    }

    /// True on one of this pool's threads.
    package var isPoolThread: Bool { threads.isWorkerThread }

    /// Renders running now.
    package var inFlight: Int { threads.running }
    /// Renders waiting for a thread.
    package var queueDepth: Int { threads.waiting }

    /// Runs `job` on a pool thread and returns its result, or nil at once when every thread is
    /// busy and `queueLimit` renders already wait (or the pool has stopped).
    package func run<T: Sendable>(_ job: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let accepted = threads.submit { continuation.resume(returning: job()) }
            if !accepted { continuation.resume(returning: nil) }
        }
    }

    /// Lets the threads finish what they run and what waits, then end.
    package func stop() { threads.stop() }
}
