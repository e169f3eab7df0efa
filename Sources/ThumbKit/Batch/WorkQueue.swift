// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization

/// The package's one work queue: a fixed number of lanes, each taking the next index when it
/// finishes its last, until none is left. Used by `thumb` (`BatchRunner`), `build`
/// (`CatalogBuilder`), the desktop batch, and the bench's scoring, workloads and decode floor.
package enum WorkQueue {
    /// Where the lanes run.
    package enum Lanes: Sendable {
        /// `DispatchQueue.concurrentPerform`: for work that computes. Dispatch may run fewer
        /// lanes at once than asked for (about one per core).
        case pool
        /// One `Thread` per lane, all running at once: for lanes that block (waiting for a child
        /// process, say), which must not hold back another.
        case threads
    }

    /// Calls `body` once for each index of `order` (default `0..<count`), handing them out in that
    /// order to `workers` lanes (at least one, at most `count`). Returns when every call has
    /// returned. Which lane runs an index, and when, is not fixed: `body` stores its result by
    /// index, so results do not depend on the number of workers.
    package static func forEach(
        _ count: Int, workers: Int, order: [Int]? = nil, lanes: Lanes = .pool, _ body: @Sendable (Int) -> Void
    ) {
        precondition(order.map { $0.count == count } ?? true, "The order lists every index once.")
        guard count > 0 else { return }
        let next = Atomic<Int>(0)
        drain(workers: min(workers, count), lanes: lanes) {
            let slot = next.add(1, ordering: .relaxed).oldValue
            guard slot < count else { return nil }
            return order?[slot] ?? slot
        } body: {
            body($0)
        }
    }

    /// The general form: each of `workers` lanes (at least one) calls `take` and then `body`
    /// with what it returned, until `take` returns nil. `take` may block, and may return nil to
    /// stop a lane early (`BatchRunner` does, at the first failure with `--stop-on-error`).
    package static func drain(
        workers: Int, lanes: Lanes = .pool, take: @Sendable () -> Int?, body: @Sendable (Int) -> Void
    ) {
        let workers = max(1, workers)
        switch lanes {
        case .pool:
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while let index = take() { body(index) }
            }
        case .threads:
            withoutActuallyEscaping(take) { take in
                withoutActuallyEscaping(body) { body in
                    onThreads(workers) {
                        while let index = take() { body(index) }
                    }
                }
            }
        }
    }

    /// Runs `lane` on `count` new threads and waits for them. A `Thread` may keep its closure a
    /// little after the lane ends, so the threads hold `lane` only through a box that is emptied
    /// before this returns: `lane` does not outlive the call (`withoutActuallyEscaping` checks).
    /// The box is a `Locked`, not a `Mutex`: every thread takes it at once at the start, and
    /// ThreadSanitizer does not see `Mutex`'s futex lock on Linux (see `Locked`).
    private static func onThreads(_ count: Int, _ lane: @escaping @Sendable () -> Void) {
        final class Box: Sendable {
            let lane: Locked<(@Sendable () -> Void)?>
            init(_ lane: @escaping @Sendable () -> Void) { self.lane = Locked(lane) }
            /// Runs the lane; its copy is released when this returns.
            func run() { lane.withLock { $0 }?() }
        }
        let box = Box(lane)
        let group = DispatchGroup()
        for _ in 0..<count {
            group.enter()
            Thread.detachNewThread {
                box.run()
                group.leave()
            }
        }
        group.wait()
        box.lane.withLock { $0 = nil }
    }
}
