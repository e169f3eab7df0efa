// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// `count` named threads of their own (never Swift's cooperative pool, never Dispatch's global
/// threads) that run jobs from one list, oldest first, until stopped. The one worker loop of
/// ``RenderPool`` and ``ResponderExecutor``.
package final class WorkerThreads: Sendable {
    private struct State {
        var waiting: [@Sendable () -> Void] = []
        var running = 0
        var stopped = false
    }

    /// The number of threads.
    package let count: Int
    /// At most this many jobs running or waiting (nil: no limit); `submit` refuses beyond.
    package let capacity: Int?
    /// Guards `state` (the waiting jobs, the running count, the stop flag); `condition` wakes
    /// idle threads when a job arrives or the threads stop.
    private let condition = NSCondition()
    // `nonisolated(unsafe)`: only read or written between `condition.lock()` and `unlock()`.
    nonisolated(unsafe) private var state = State()
    /// The threads (`pthread_self()` of each, once it has started).
    private let threads = Locked<Set<pthread_t>>([])

    /// Starts `count` threads named `name-0`, `name-1`… (Linux keeps 15 bytes of a name).
    package init(count: Int, name: String, capacity: Int? = nil) {
        self.count = max(1, count)
        self.capacity = capacity
        for index in 0..<self.count {
            let thread = Thread { [self] in
                threads.withLock { _ = $0.insert(pthread_self()) }
                work()
            }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    /// True on one of these threads.
    package var isWorkerThread: Bool { threads.withLock { $0.contains(pthread_self()) } }
    /// Jobs running now.
    package var running: Int { condition.withLock { state.running } }
    /// Jobs waiting for a thread.
    package var waiting: Int { condition.withLock { state.waiting.count } }

    /// Queues `job`; false, and `job` is dropped, once stopped or when `capacity` jobs already
    /// run or wait.
    package func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        condition.withLock {
            guard !state.stopped else { return false }
            if let capacity, state.running + state.waiting.count >= capacity { return false }
            state.waiting.append(job)
            condition.signal()
            return true
        }
    }

    /// Lets the threads finish what runs and what waits, then end.
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
