// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Renews a worker's leases every `lease / 3` on a thread of its own until stopped, so a build
/// that takes longer than the lease keeps its claims. A renewal that fails (the database busy)
/// is simply tried at the next tick: two more ticks remain before the lease runs out.
final class LeaseRenewer: Sendable {
    private let stopped = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)

    init(queue: BuildQueue, worker: String, lease: Duration, clock: any BuildClock) {
        let interval = max(0.05, Double(lease.milliseconds) / 3000)
        let (stopped, exited) = (self.stopped, self.exited)
        Thread.detachNewThread {
            while stopped.wait(timeout: .now() + interval) == .timedOut {
                _ = try? queue.renew(worker: worker, lease: lease, now: clock.now())
            }
            exited.signal()
        }
    }

    /// Stops renewing; returns once the thread has made its last renewal.
    func stop() {
        stopped.signal()
        exited.wait()
    }
}
