// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// A `drain` (what `thumbkit build` runs) whose claim meets the catalog's write lock busy past
/// the busy timeout waits and claims again, rather than ending the build having made nothing
/// (four `build -j 1` on PostgreSQL, started together on a loaded machine, had some exit that
/// way). The busy lock is another connection's write transaction, let go from the first
/// refusal's callback, so the order is fixed without any sleep.
struct BuildWorkerLockTests {
    @Test(arguments: [1, 2]) func aClaimRefusedByABusyLockIsTriedAgain(jobs: Int) throws {
        let workspace = try TestWorkspace()
        let path = workspace.path("c.sqlite")
        let planned = try BuildWorkerTests.catalog(workspace, "c.sqlite", bugs: 2, backend: .sqlite)
        let planner = CatalogBuilder(
            store: planned, outputDirectory: workspace.path("out"), recipes: BuildWorkerTests.recipes, jobs: 1)
        let queued = try planner.planQueue(BuildQueue(store: planned), now: Date()).queued.count
        #expect(queued > 1)

        let holder = try WriteLockHolder(path: path)
        let store = try CatalogStore(path: path, busyTimeout: .milliseconds(20))
        let builder = CatalogBuilder(
            store: store, outputDirectory: workspace.path("out"), recipes: BuildWorkerTests.recipes, jobs: jobs)
        let worker = BuildWorker(builder: builder, queue: BuildQueue(store: store), options: .init(batch: 4))
        let refusals = Locked([String]())
        let report = try worker.drain(
            idle: .milliseconds(10),
            onFailure: { line in
                let first = refusals.withLock { lines in
                    lines.append(line)
                    return lines.count == 1
                }
                if first { holder.letGo() }  // the other writer finishes…
            })
        // …and the drain claims again and builds everything.
        let lines = refusals.withLock { $0 }
        // (With two lanes, the other lane may meet the lock too before the message is read.)
        #expect(!lines.isEmpty && lines.count <= jobs, "\(lines)")
        #expect(lines.allSatisfy { $0.contains("locked") || $0.contains("busy") }, "\(lines)")
        #expect(lines.allSatisfy { $0.contains("trying again (1 of 12)") }, "\(lines)")
        #expect(report.failed == 0)
        #expect(try BuildQueue(store: store).entries().isEmpty)
    }
}
