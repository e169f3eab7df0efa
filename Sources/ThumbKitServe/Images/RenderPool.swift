// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// ThumbKit's own bounded pool for renders: `workers` threads of its own (never the HTTP
/// server's threads, never Swift's cooperative pool, which CPU-bound decodes would starve), and
/// at most `queueLimit` renders waiting for one. A render offered beyond that is refused at once
/// (the server answers 429), so a burst costs memory for the queue's closures only.
package final class RenderPool: Sendable {
    private struct State {
        var waiting: [@Sendable () -> Void] = []
        var running = 0
        var stopped = false
    }

    /// The number of threads, and the number of renders allowed to wait.
    package let workers: Int
    package let queueLimit: Int
    /// Guards `state` (the waiting jobs, the running count, the stop flag); `condition` wakes
    /// idle threads when a job arrives or the pool stops.
    private let condition = NSCondition()
    // `nonisolated(unsafe)`: only read or written between `condition.lock()` and `unlock()`.
    nonisolated(unsafe) private var state = State()

    /// The pool's threads (`pthread_self()` of each, once it has started).
    private let threads = Locked<Set<pthread_t>>([])

    package init(workers: Int, queueLimit: Int) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
        for index in 0..<self.workers {
            let thread = Thread { [self] in
                threads.withLock { $0.insert(pthread_self()) }
                work()
            }
            // A short name: Linux keeps 15 bytes of a thread's name.
            thread.name = "tk-render-\(index)"
            thread.start()
        }
    }

    /// True on one of this pool's threads.
    package var isPoolThread: Bool { threads.withLock { $0.contains(pthread_self()) } }

    /// Renders running now.
    package var inFlight: Int { condition.withLock { state.running } }
    /// Renders waiting for a thread.
    package var queueDepth: Int { condition.withLock { state.waiting.count } }

    /// Runs `job` on a pool thread and returns its result, or nil at once when every thread is
    /// busy and `queueLimit` renders already wait (or the pool has stopped).
    package func run<T: Sendable>(_ job: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let accepted = condition.withLock { () -> Bool in
                guard !state.stopped else { return false }
                guard state.running + state.waiting.count < workers + queueLimit else { return false }
                state.waiting.append { continuation.resume(returning: job()) }
                condition.signal()
                return true
            }
            if !accepted { continuation.resume(returning: nil) }
        }
    }

    /// Lets the threads finish what they run and what waits, then end.
    package func stop() {
        condition.withLock {
            state.stopped = true
            condition.broadcast()
        }
    }

    private func work() {
        while true {
            condition.lock()
            while state.waiting.isEmpty && !state.stopped { condition.wait() }
            if state.waiting.isEmpty {
                condition.unlock()
                return
            }
            let job = state.waiting.removeFirst()
            state.running += 1
            condition.unlock()
            job()
            condition.withLock { state.running -= 1 }
        }
    }
}
