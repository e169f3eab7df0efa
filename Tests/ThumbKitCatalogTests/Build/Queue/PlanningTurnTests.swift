// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// Builds started together plan once: a build uses a planning pass that began after the build
/// started, ended, and planned the same recipes and output folder; any other pass it does not
/// use, and it plans itself.
struct PlanningTurnTests {
    /// A catalog of 6 bugs and a food, its builder, and its queue.
    static func setUp(_ workspace: TestWorkspace, backend: CatalogBackend) throws -> (CatalogBuilder, BuildQueue) {
        let store = try BuildWorkerTests.catalog(workspace, "c.sqlite", bugs: 6, backend: backend)
        let builder = CatalogBuilder(
            store: store, outputDirectory: workspace.path("out"), recipes: BuildWorkerTests.recipes, jobs: 1)
        return (builder, BuildQueue(store: store))
    }

    @Test(arguments: CatalogBackend.all) func aBuildUsesAPassBegunAfterItStarted(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let (builder, queue) = try Self.setUp(workspace, backend: backend)
        let launched = Date().addingTimeInterval(-1)
        let first = try builder.planQueue(queue, now: Date())
        #expect(first.planned && first.queued.count == 8)
        let before = try queue.entries()
        // Began (just now) after `launched`, ended, same recipes and folder: used.
        let second = try builder.planQueue(queue, now: Date(), since: launched, wait: .seconds(5))
        #expect(!second.planned && second.queued.isEmpty && second.upToDate == 0 && second.refusal == nil)
        #expect(try queue.entries() == before)
        #expect(try PlanningTurn.passes(builder.store) == (begun: 1, ended: 1))
    }

    @Test(arguments: CatalogBackend.all) func aPassBegunBeforeTheBuildStartedIsNotUsed(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let (builder, queue) = try Self.setUp(workspace, backend: backend)
        _ = try builder.planQueue(queue, now: Date())
        Thread.sleep(forTimeInterval: 0.01)
        let plan = try builder.planQueue(queue, now: Date(), since: Date(), wait: .seconds(5))
        #expect(plan.planned && plan.queued.count == 8)
        #expect(try PlanningTurn.passes(builder.store) == (begun: 2, ended: 2))
    }

    @Test(arguments: CatalogBackend.all) func aPassOfOtherRecipesOrAnotherFolderIsNotUsed(backend: CatalogBackend)
        throws
    {
        let workspace = try TestWorkspace()
        let (builder, queue) = try Self.setUp(workspace, backend: backend)
        let launched = Date().addingTimeInterval(-1)
        let other = CatalogBuilder(
            store: builder.store, outputDirectory: workspace.path("elsewhere"), recipes: BuildWorkerTests.recipes,
            jobs: 1)
        _ = try other.planQueue(queue, now: Date())
        let plan = try builder.planQueue(queue, now: Date(), since: launched, wait: .seconds(5))
        #expect(plan.planned && plan.queued.count == 8)
        let defaults = CatalogBuilder(store: builder.store, outputDirectory: workspace.path("out"), jobs: 1)
        _ = try defaults.planQueue(queue, now: Date())
        #expect(try builder.planQueue(queue, now: Date(), since: launched, wait: .seconds(5)).planned)
    }

    /// A pass begun after the build started is waited for while it runs, and used once it ends;
    /// one that never ends (its planner died) is waited for `wait`, then the build plans.
    @Test(arguments: CatalogBackend.all, [true, false])
    func aRunningPassIsWaitedForUpToTheWait(backend: CatalogBackend, ends: Bool) throws {
        let workspace = try TestWorkspace()
        let (builder, queue) = try Self.setUp(workspace, backend: backend)
        let launched = Date().addingTimeInterval(-1)
        let turn = PlanningTurn(builder: builder, wait: .seconds(5))
        let pass = try #require(try turn.take(since: launched, now: Date(), builder.store))
        let store = builder.store
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.3)
            if ends { try? store.write { tx in try turn.finish(pass, refused: false, in: tx.db) } }
            ended.signal()
        }
        let started = ContinuousClock.now
        let plan = try builder.planQueue(queue, now: Date(), since: launched, wait: .milliseconds(ends ? 5_000 : 600))
        let waited = ContinuousClock.now - started
        ended.wait()
        #expect(waited >= .milliseconds(250))
        #expect(plan.planned == !ends)
        #expect(plan.queued.count == (ends ? 0 : 8))
    }

    @Test(arguments: CatalogBackend.all) func aPassThatRefusedTheFolderIsNotUsed(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let (builder, queue) = try Self.setUp(workspace, backend: backend)
        let launched = Date().addingTimeInterval(-1)
        let turn = PlanningTurn(builder: builder, wait: .seconds(5))
        let pass = try #require(try turn.take(since: launched, now: Date(), builder.store))
        try builder.store.write { tx in try turn.finish(pass, refused: true, in: tx.db) }
        let plan = try builder.planQueue(queue, now: Date(), since: launched, wait: .seconds(5))
        #expect(plan.planned && plan.queued.count == 8)
    }
}
