// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

@testable import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// A real `thumbkit worker` on a PostgreSQL catalog wakes on the NOTIFY of the change that
/// queued a record, long before its poll interval.
struct WorkerNotifyProcessTests {
    @Test(
        .tags(.realProcess),
        .enabled(if: CatalogBackend.postgresEnabled, "needs PostgreSQL (THUMBKIT_TEST_POSTGRES_URL)"))
    func aPostgresWorkerBuildsARecordQueuedAfterItStartedWithinSecondsNotAtItsPoll() throws {
        let workspace = try CLIWorkspace()
        let scratch = try TestWorkspace()
        let catalog = try CatalogBackend.postgres.catalog(in: scratch)
        let store = try CatalogStore(location: try CatalogLocation(parsing: catalog))
        let recipes = try workspace.write(
            "recipes.json",
            #"{"replaceDefaults": true, "recipes": [{"name": "bug-list", "record": "bug", "kind": "list", "size": "24x24", "scales": [1]}]}"#
        )
        _ = try store.useRecipeFile(at: recipes)
        let picture = try ImageRef.load(path: try workspace.image("img/late.png", side: 40, seed: 3))

        let worker = try WatchProcess(
            ["worker", "--catalog", catalog, "--out", workspace.path("out"), "--json", "-j", "1", "--poll", "30"],
            in: workspace.path(""))
        // Started (listening from before this line) and idle: it found nothing claimable and is
        // waiting, so only a wake-up (the NOTIFY, or the 30 s poll) can start it again.
        #expect(worker.wait(timeout: 30) { !WorkerProcessTests.lines($0, "started").isEmpty })
        #expect(worker.wait(timeout: 30) { !WorkerProcessTests.lines($0, "idle").isEmpty }, "\(worker.stderr)")
        #expect(try BuildQueue(store: store).entries().isEmpty)

        let queued = ContinuousClock.now
        try store.write { tx in _ = try tx.addBug(title: "Late", rating: .zero, image: picture) }
        #expect(worker.wait(timeout: 10) { WorkerProcessTests.lines($0, "built").contains { $0["record"] == "bug 1" } })
        let latency = ContinuousClock.now - queued
        // Well under the 30 s poll: only the NOTIFY can have woken it.
        #expect(latency < .seconds(5), "built \(latency) after it was queued")

        worker.send(SIGTERM)
        #expect(worker.exitStatus(timeout: 30) == 0, "\(worker.stderr)")
        #expect(try BuildQueue(store: store).entries() == [])
    }
}
