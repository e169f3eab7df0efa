// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// `serve`'s `onIdle`: the worker says when it has gone idle (nothing claimable, about to wait),
/// once per idle spell, so a test can queue work knowing only a wake-up can start it.
struct BuildWorkerIdleTests {
    /// Returns from each wait at once, noting it in `log`; the first queues `bug 1` again (as a
    /// change to it would).
    final class ScriptedWake: WakeSource {
        let log: Locked<[String]>
        let store: CatalogStore
        let waits = Locked(0)

        init(log: Locked<[String]>, store: CatalogStore) {
            self.log = log
            self.store = store
        }

        func wait(timeout: Duration) {
            log.withLock { $0.append("wait") }
            let count = waits.withLock { waits in
                waits += 1
                return waits
            }
            guard count == 1 else { return }
            let queue = BuildQueue(store: store)
            _ = try? store.write { tx in try queue.enqueue([.bug(1)], in: tx) }
        }

        func interrupt() {}
    }

    @Test func aWorkerSaysIdleOnceAfterTheQueueEmptiesNotOnEachPollThatFindsNothing() throws {
        let workspace = try TestWorkspace()
        let store = try BuildWorkerTests.catalog(workspace, "c.sqlite", bugs: 2, backend: .sqlite)
        let builder = CatalogBuilder(
            store: store, outputDirectory: workspace.path("out"), recipes: BuildWorkerTests.recipes, jobs: 1)
        let queue = BuildQueue(store: store)
        let plan = try builder.planQueue(queue, now: Date())
        #expect(plan.queued.count > 1)
        let log = Locked([String]())
        let wake = ScriptedWake(log: log, store: store)
        let worker = BuildWorker(builder: builder, queue: queue, options: .init(batch: 1))
        let report = try worker.serve(
            wake: wake, poll: .seconds(30), shouldStop: { wake.waits.withLock { $0 } == 3 },
            onEvent: { event in log.withLock { $0.append("\(event.status.rawValue) \(event.record)") } },
            onIdle: { log.withLock { $0.append("idle") } })

        // Everything queued built, then idle once before the first wait; the record that wait
        // queued built, idle again; and the empty poll after that says nothing.
        let lines = log.withLock { $0 }
        let first = lines.prefix { $0 != "idle" }
        #expect(first.count == plan.queued.count && first.allSatisfy { $0.hasPrefix("built ") }, "\(lines)")
        #expect(Array(lines.dropFirst(first.count)) == ["idle", "wait", "built bug 1", "idle", "wait", "wait"])
        #expect(report.failed == 0)
        #expect(try queue.entries() == [])
    }
}
