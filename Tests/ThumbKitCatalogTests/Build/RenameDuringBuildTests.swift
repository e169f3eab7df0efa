// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// A record renamed while a build of it is under way (a worker holding its queued row, or a
/// plain build of it): the late build records nothing, and leaves no file of the old title
/// behind, on each backend.
struct RenameDuringBuildTests {
    @Test(arguments: CatalogBackend.all, [true, false])
    func aLateBuildOfTheOldTitleLeavesNothingBehind(backend: CatalogBackend, queued: Bool) throws {
        let fixture = try BuildFixture(backend: backend)
        let store = fixture.store
        let queue = BuildQueue(store: store)
        // A worker claims bug 1 (or a plain build starts on it) and plans it under its title…
        let claims = try queue.claim(worker: "w", limit: 10, lease: .seconds(30), now: Date())
        let claim = try #require(claims.first { $0.record == .bug(1) })
        let bug = try #require(try store.read { try $0.bug(id: 1) })
        let stale = BuildPlanner(recipes: .defaults, icons: nil, iconsUnavailable: false, halfGiven: false)
            .unit(for: bug)
        // …the bug is renamed, and `catalog rename` builds it at once under its new title…
        try store.write { tx in _ = try tx.retitle(bugID: 1, title: "Colorado Beetle") }
        let renamed = fixture.builder(jobs: 1).build(only: [.bug(1)])
        #expect(renamed.failures == [] && renamed.made > 0)
        let rows = try fixture.rows(.bug(1))
        #expect(!rows.isEmpty && rows.allSatisfy { $0.path.hasPrefix("bugs/1-colorado-beetle/") })

        // …then the stalled build goes on with the old title: it makes its files, and its commit
        // is refused (queued) or skipped (the title changed).
        let fence = BuildCommitGuard(
            check: { tx, _ in try queue.check(claim, worker: "w", in: tx) },
            finish: { _, record, _, _ in Issue.record("\(record): a lost claim was settled") })
        let late = try #require(
            UnitBuild(
                unit: stale, rows: [], folder: OutputFolder(root: fixture.out), store: store,
                style: RecipeBook.defaults.ratingStrip, limits: ImageLimits(), threads: 1,
                commitGuard: queued ? fence : nil
            ).run())
        #expect(late.made == 0)
        #expect(late.failures.count == (queued ? 1 : 0), "\(late.failures)")
        #expect(try fixture.rows(.bug(1)) == rows)
        let files = fixture.files()
        #expect(!files.contains { $0.hasPrefix("bugs/1-potato-bug") }, "\(files)")
        #expect(try consistencyProblems(store: store, outputDirectory: fixture.out) == [])
        // Nothing is left for the next full build to sweep.
        let full = fixture.builder(jobs: 1).build()
        #expect(full.failures == [] && full.removed == 0)
    }
}
