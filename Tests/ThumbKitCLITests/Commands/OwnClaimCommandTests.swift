// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalog
import ThumbKitCatalogTestSupport

@testable import ThumbKitCLI

/// `catalog rate`, `rename` and `set-image` claim the record they change in the transaction of
/// the change and build it under that claim (issue 29, item 8): no queue row is left behind for
/// a worker to build the record again. With `--no-build` the row stays queued for one.
struct OwnClaimCommandTests {
    typealias Run = CatalogCLITests.Run

    @Test(arguments: CatalogBackend.all)
    func aChangedRecordIsBuiltUnderItsOwnClaimAndLeavesNoQueueRow(backend: CatalogBackend) async throws {
        let (workspace, paths, store, scratch) = try await CatalogRemoveRenameTests.built(backend)
        defer { withExtendedLifetime(scratch) {} }
        let queue = BuildQueue(store: store)
        #expect(try queue.entries() == [])
        let picture = try workspace.image("img/new.jpg", side: 30, seed: 9, format: .jpeg)
        for argv in [
            ["catalog", "rate", "1", "4.5"], ["catalog", "rename", "bug:2", "Beetle Two"],
            ["catalog", "set-image", "bug:1", picture],
        ] {
            let run = await Run(argv + paths)
            #expect(run.status == 0, "\(argv): \(run.stderr)")
            #expect(
                run.stdout.contains("outputs: ") && !run.stdout.contains("outputs: 0 made"), "\(argv): \(run.stdout)")
            #expect(try queue.entries() == [], "\(argv)")
        }
        #expect(try store.bugs().map(\.rating) == [Rating(exactly: 4.5)!, Rating(exactly: 3.5)!])
        #expect(try consistencyProblems(store: store, outputDirectory: workspace.path("out")) == [])

        let queued = await Run(["catalog", "rate", "1", "1", "--no-build"] + paths)
        #expect(queued.status == 0 && !queued.stdout.contains("outputs: "))
        #expect(try queue.entries().map(\.record) == [.bug(1)])
    }
}
