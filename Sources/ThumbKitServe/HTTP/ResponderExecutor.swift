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
    private let threads: WorkerThreads

    init(threads count: Int) {
        threads = WorkerThreads(count: count, name: "tk-http")
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let run: @Sendable () -> Void = { job.runSynchronously(on: executor) }
        if !threads.submit(run) { Thread(block: run).start() }
    }

    /// Lets the threads run what waits, then end. A job enqueued later still runs, on a thread
    /// of its own, so no task is left suspended for ever.
    func stop() { threads.stop() }
}
