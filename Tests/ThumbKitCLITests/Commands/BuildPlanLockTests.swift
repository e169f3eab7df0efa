// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalog
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

@testable import ThumbKitCLI

/// `thumbkit build`'s planning pass when the catalog's write lock stays busy past the lock
/// timeout (another build's planning pass): it plans again rather than exiting having made
/// nothing. Four `build -j 1` on PostgreSQL with 2,000 records, started together on a loaded
/// machine, had one or two of them exit 1 that way after 5.3 s. The busy lock here is another
/// connection's write transaction, held until the test lets it go from the refusal's callback,
/// so the order is fixed without any sleep.
struct BuildPlanLockTests {
    /// A catalog of one bug, and another connection holding its write lock.
    static func heldCatalog(_ workspace: CLIWorkspace) throws -> (path: String, holder: WriteLockHolder) {
        let path = workspace.path("c.sqlite")
        let picture = try workspace.image("img/0.png", side: 16, seed: 1)
        try CatalogStore(path: path).write { tx in
            try tx.addBug(title: "Bug", rating: Rating.all[3], image: try ImageRef.load(path: picture))
        }
        return (path, try WriteLockHolder(path: path))
    }

    @Test func aPlanningPassRefusedByABusyWriteLockPlansAgain() throws {
        let workspace = try CLIWorkspace()
        let (path, holder) = try Self.heldCatalog(workspace)
        let store = try CatalogStore(path: path, busyTimeout: .milliseconds(20))
        let builder = CatalogBuilder(store: store, outputDirectory: workspace.path("out"), jobs: 1)
        var refusals: [Int] = []
        let plan = try BuildCommand.planQueue(builder, BuildQueue(store: store), now: Date()) { line, attempt in
            #expect(line.contains("locked"), "\(line)")
            refusals.append(attempt)
            holder.letGo()  // the other writer finishes…
        }
        // …and the second pass plans the bug and the app entry.
        #expect(refusals == [1])
        #expect(plan.queued.count == 2 && plan.queued.contains(.app))
        #expect(try BuildQueue(store: store).entries().count == 2)
    }

    @Test func aWriteLockBusyForEveryTryStillEndsTheBuild() throws {
        let workspace = try CLIWorkspace()
        let (path, holder) = try Self.heldCatalog(workspace)
        defer { holder.letGo() }
        let store = try CatalogStore(path: path, busyTimeout: .milliseconds(20))
        let builder = CatalogBuilder(store: store, outputDirectory: workspace.path("out"), jobs: 1)
        var refusals: [Int] = []
        #expect(throws: CatalogError.self) {
            _ = try BuildCommand.planQueue(builder, BuildQueue(store: store), now: Date(), tries: 3) { _, attempt in
                refusals.append(attempt)
            }
        }
        #expect(refusals == [1, 2])
    }
}
