// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// Renews a worker's leases every `lease / 3` on a thread of its own until stopped, so a build
/// that takes longer than the lease keeps its claims. A renewal that fails (the database busy)
/// is simply tried at the next tick: two more ticks remain before the lease runs out.
final class LeaseRenewer: Sendable {
    private let stopped = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    /// The queue, until ``stop()`` empties it: the thread reaches the queue (and so the store)
    /// only through this box, because a `Thread` may keep its closure a little after it ends,
    /// and a store released late closes its database (an SQLite checkpoint, a write) after the
    /// command that used it has returned (as the lanes' box in `BuildWorker+Lanes` and
    /// `WorkQueue` do).
    private let queue: Locked<BuildQueue?>

    init(queue: BuildQueue, worker: String, lease: Duration, clock: any BuildClock) {
        let interval = max(0.05, Double(lease.milliseconds) / 3000)
        let (stopped, exited) = (self.stopped, self.exited)
        let box = Locked<BuildQueue?>(queue)
        self.queue = box
        Thread.detachNewThread {
            while stopped.wait(timeout: .now() + interval) == .timedOut {
                guard let queue = box.withLock({ $0 }) else { break }
                _ = try? queue.renew(worker: worker, lease: lease, now: clock.now())
            }
            exited.signal()
        }
    }

    /// Stops renewing; returns once the thread has made its last renewal and no longer holds
    /// the queue.
    func stop() {
        stopped.signal()
        exited.wait()
        queue.withLock { $0 = nil }
    }
}
