// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

/// `serve`'s own builders: `lanes` threads, each a `BuildWorker` (one job) on the catalog's
/// build queue, exactly as `thumbkit worker` runs one, so the web app, the CLI, `watch` and any
/// separate workers share one queue. A lane waits `poll` when idle, or less when `nudge()` says
/// the app just queued something. `serve --no-worker` runs none (separate workers build).
package final class CatalogBuildLanes: Sendable {
    private let workers: [BuildWorker]
    private let wakes: [NudgeWakeSource]
    private let poll: Duration
    /// Set once `stop()` was called.
    private let stopping = Locked(false)
    /// Left by each lane's thread when its loop ends.
    private let ended = DispatchGroup()
    /// One line per failure or lost connection, for the server's log.
    private let log: @Sendable (String) -> Void

    /// Lanes on `store`'s catalog, each with a connection of its own that behaves as `store`'s
    /// (`CatalogStore.sibling()`), writing to `outputDirectory`.
    package init(
        store shared: CatalogStore, outputDirectory: String, lanes: Int, limits: ImageLimits,
        poll: Duration = .seconds(2), log: @escaping @Sendable (String) -> Void
    ) throws {
        var workers: [BuildWorker] = []
        for _ in 0..<max(1, lanes) {
            let store = try shared.sibling()
            let builder = CatalogBuilder(
                store: store, outputDirectory: outputDirectory, recipes: try store.recipeBook(), jobs: 1, limits: limits
            )
            workers.append(BuildWorker(builder: builder, queue: BuildQueue(store: store), options: .init(batch: 1)))
        }
        self.workers = workers
        self.wakes = workers.map { _ in NudgeWakeSource() }
        self.poll = poll
        self.log = log
    }

    /// Queues what is stale once (as `thumbkit worker` does when it starts), then starts the
    /// lanes. Returns the refusal line when the output folder cannot be built into.
    package func start() throws -> String? {
        let first = workers[0]
        _ = try first.builder.removeStrayTemporaries()
        let plan = try first.builder.planQueue(first.queue, now: Date())
        if let refusal = plan.refusal { return refusal }
        for (worker, wake) in zip(workers, wakes) {
            ended.enter()
            let thread = Thread { [stopping, poll, log, ended] in
                defer { ended.leave() }
                do {
                    _ = try worker.serve(
                        wake: wake, poll: poll, shouldStop: { stopping.withLock { $0 } },
                        onEvent: { event in
                            if let error = event.error { log("\(event.record): \(event.status.rawValue): \(error)") }
                        },
                        onFailure: { log($0) })
                } catch {
                    log("a build lane stopped: \(error)")
                }
            }
            thread.name = "thumbkit-serve-build"
            thread.start()
        }
        return nil
    }

    /// Wakes every idle lane now (something was queued).
    package func nudge() {
        wakes.forEach { $0.nudge() }
    }

    /// Stops the lanes after the records in hand, waits for them (a blocking call), and closes
    /// their connections (a lane still running after `timeout` then fails its next transaction
    /// and ends, writing nothing more).
    package func stop(timeout: Duration = .seconds(60)) -> Bool {
        stopping.withLock { $0 = true }
        wakes.forEach { $0.interrupt() }
        let stopped = ended.wait(timeout: .now() + timeout.seconds) == .success
        workers.forEach { $0.builder.store.close() }
        return stopped
    }
}

/// A lane's wake source: the poll interval, cut short by `nudge()` (once) or `interrupt()`
/// (for good).
final class NudgeWakeSource: WakeSource {
    /// True once interrupted: every later wait returns at once.
    private let interrupted = Locked(false)
    private let signal = DispatchSemaphore(value: 0)

    func wait(timeout: Duration) {
        if interrupted.withLock({ $0 }) { return }
        _ = signal.wait(timeout: .now() + timeout.seconds)
    }

    func nudge() {
        signal.signal()
    }

    func interrupt() {
        interrupted.withLock { $0 = true }
        signal.signal()
    }
}
