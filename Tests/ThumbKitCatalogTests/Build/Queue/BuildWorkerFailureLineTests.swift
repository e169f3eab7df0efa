// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// `serve`'s `onFailure` (what `thumbkit worker` logs as `failure` lines): a failure that
/// concerns no one record reaches it, and a record's own failure does not, since its `failed`
/// event already carries it (one line per bad file).
struct BuildWorkerFailureLineTests {
    /// Stops the worker at its first wait (the queue empty).
    final class StopAtFirstWait: WakeSource {
        let waits = Locked(0)
        func wait(timeout: Duration) { waits.withLock { $0 += 1 } }
        func interrupt() {}
    }

    @Test(arguments: CatalogBackend.all) func aSharedFailureIsPassedOnAndARecordsOwnOnlyInItsEvent(
        backend: CatalogBackend
    ) throws {
        let workspace = try TestWorkspace()
        let store = try BuildWorkerTests.catalog(workspace, "c.sqlite", bugs: 2, backend: backend)
        let missing = try #require(try store.read { try $0.bug(id: 2) }?.image?.path)
        try FileManager.default.removeItem(atPath: missing)
        let noIcon = workspace.path("icons/none.png")
        try store.write { tx in
            var assets = try tx.assets()
            assets.ratingEmpty = noIcon
            try tx.setAssets(assets)
        }
        let builder = CatalogBuilder(
            store: store, outputDirectory: workspace.path("out"), recipes: BuildWorkerTests.recipes, jobs: 1)
        let queue = BuildQueue(store: store)
        _ = try builder.planQueue(queue, now: Date())
        let wake = StopAtFirstWait()
        var events: [BuildWorker.Event] = []
        var lines: [String] = []
        _ = try BuildWorker(builder: builder, queue: queue, options: .init(lease: .seconds(5), batch: 1)).serve(
            wake: wake, poll: .seconds(30), shouldStop: { wake.waits.withLock { $0 } > 0 },
            onEvent: { events.append($0) }, onFailure: { lines.append($0) })
        let failed = try #require(events.first { $0.record == "bug 2" && $0.status == .failed })
        #expect(failed.error?.contains(missing) == true)
        #expect(!lines.contains { $0.contains(missing) }, "\(lines)")
        #expect(lines.filter { $0.hasPrefix(noIcon) }.count == 1, "\(lines)")
    }
}
