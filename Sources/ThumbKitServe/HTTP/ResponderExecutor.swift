// SPDX-License-Identifier: Apache-2.0
import Dispatch

/// Where the server's responder tasks run: a concurrent dispatch queue of the server's own, not
/// Swift's cooperative pool. A library user whose code blocks cooperative threads (or a test
/// that drives the server with blocking clients) cannot then starve the server's answers.
final class ResponderExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "thumbkit.http.responders", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
