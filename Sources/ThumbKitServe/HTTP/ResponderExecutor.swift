// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Where the server's responder tasks run: `threads` threads of the server's own, neither Swift's
/// cooperative pool nor Dispatch's global queues. On Linux a concurrent dispatch queue runs on
/// Dispatch's default-priority threads, the ones Swift's global pool also uses, which grow only
/// slowly when they block; so any code in the process that blocks them (a pipe read, a
/// semaphore) held the answers back. Measured with HTTPServerTests and ImageServiceHTTPTests in
/// parallel (their test process reads curl's pipes on global queues): 11-16 s with a dispatch
/// queue, 1.7 s with these threads (with `SingleFlight`'s fix in both). A responder blocks too
/// (it opens and hashes its source before it renders), so there are several threads.
final class ResponderExecutor: TaskExecutor {
    private struct State {
        var jobs: [UnownedJob] = []
        var stopped = false
    }

    /// Guards `state` (the jobs waiting for a thread, the stop flag); `condition` wakes an idle
    /// thread when a job arrives or the executor stops.
    private let condition = NSCondition()
    // `nonisolated(unsafe)`: only read or written between `condition.lock()` and `unlock()`.
    nonisolated(unsafe) private var state = State()

    init(threads: Int) {
        for index in 0..<max(1, threads) {
            let thread = Thread { [self] in work() }
            // A short name: Linux keeps 15 bytes of a thread's name.
            thread.name = "tk-http-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queued = condition.withLock {
            guard !state.stopped else { return false }
            state.jobs.append(job)
            condition.signal()
            return true
        }
        if !queued {
            Thread { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }.start()
        }
    }

    /// Lets the threads run what waits, then end. A job enqueued later still runs, on a thread
    /// of its own, so no task is left suspended for ever.
    func stop() {
        condition.withLock {
            state.stopped = true
            condition.broadcast()
        }
    }

    private func work() {
        while true {
            condition.lock()
            while state.jobs.isEmpty && !state.stopped { condition.wait() }
            guard !state.jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = state.jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
