// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// The PostgreSQL catalog's write lock modes (`WriteLockMode`, docs/scale-out.md "Locks"):
/// each invariant the once-global lock guarded, checked with two stores on one catalog. One
/// store holds a transaction open; inside it, the other starts its operation on a thread, and
/// the test waits until that operation either waits for a lock the first holds (seen in
/// `pg_locks`, no timing) or has finished; then the first commits and the outcome is checked.
struct QueueLockTests {
    /// A PostgreSQL catalog seen through two stores (two sessions).
    struct Fixture {
        let build: BuildFixture
        let other: CatalogStore

        init() throws {
            build = try BuildFixture(assets: true, backend: .postgres)
            other = try CatalogStore(location: try CatalogBackend.postgres.location(in: build.workspace))
        }

        var store: CatalogStore { build.store }
    }

    /// No bug is claimed while a worker holds the `app` entry: a claim that began while
    /// another claim was taking the app sees the app held once it runs (the claim key). Under
    /// the shared lock alone, its snapshot predates the app's claim and it takes the bugs.
    @Test(.enabled(if: CatalogBackend.postgresEnabled))
    func aClaimWaitsForAClaimInFlightAndThenSeesTheAppHeld() throws {
        let f = try Fixture()
        let (queue, other) = (BuildQueue(store: f.store), BuildQueue(store: f.other))
        let late = LockWaitProbe<[RecordRef]>()
        let outcome = try f.store.write(mode: .claim) { tx in
            let first = try queue.claim(worker: "a", limit: 1, lease: .seconds(60), now: Date())
            #expect(first.map(\.record) == [.app])
            return try late.start(in: tx) {
                try other.claim(worker: "b", limit: 10, lease: .seconds(60), now: Date()).map(\.record)
            }
        }
        #expect(outcome == .waited)
        #expect(try late.joined() == [.food(1)])
    }

    /// Planning reads every record and then drops the queue rows of current ones: it must not
    /// run beside a shared commit (which settles a row it read), so it waits for one in flight.
    @Test(.enabled(if: CatalogBackend.postgresEnabled))
    func planningWaitsForASharedCommitInFlight() throws {
        let f = try Fixture()
        let builder = CatalogBuilder(
            store: f.other, outputDirectory: f.build.out, recipes: .defaults, jobs: 1)
        let queue = BuildQueue(store: f.other)
        let plan = LockWaitProbe<CatalogBuilder.QueuePlan>()
        let outcome = try f.store.write(mode: .shared) { tx in
            try plan.start(in: tx) { try builder.planQueue(queue, now: Date()) }
        }
        #expect(outcome == .waited)
        #expect(try plan.joined().queued.contains(.bug(1)))
    }

    /// Planning does its file work (a `stat` per output) on a snapshot before it takes the
    /// lock, and in its transaction checks again only what changed meanwhile: a record whose
    /// rows went while it waited is queued; one whose rows did not keeps the snapshot's verdict
    /// (its file, removed meanwhile, was checked before: the proof that no file work waits for
    /// the lock, or holds it).
    @Test(.enabled(if: CatalogBackend.postgresEnabled))
    func planningChecksAgainOnlyWhatChangedWhileItWaitedForTheLock() throws {
        let f = try Fixture()
        #expect(f.build.builder(jobs: 1).build().failed == 0)
        let builder = CatalogBuilder(store: f.other, outputDirectory: f.build.out, recipes: .defaults, jobs: 1)
        let queue = BuildQueue(store: f.other)
        let plan = LockWaitProbe<CatalogBuilder.QueuePlan>()
        let removedFile = try #require(try f.store.outputs(for: .bug(2)).first).path
        let outcome = try f.store.write { tx in
            let outcome = try plan.start(in: tx) { try builder.planQueue(queue, now: Date()) }
            for row in try tx.outputs(for: .bug(1)) {
                _ = try tx.db.run("DELETE FROM outputs WHERE path = ?", [.text(row.path)])
            }
            try FileManager.default.removeItem(atPath: f.build.out + "/" + removedFile)
            return outcome
        }
        #expect(outcome == .waited)
        let queued = try plan.joined().queued
        #expect(queued.contains(.bug(1)))
        #expect(!queued.contains(.bug(2)))
        #expect(!queued.contains(.food(1)))
    }

    /// The sweep removes files no row describes: it must not run while a shared commit has
    /// found (or rewritten) its files and not yet recorded them, so it waits for one in flight,
    /// and then keeps the file that commit recorded.
    @Test(.enabled(if: CatalogBackend.postgresEnabled))
    func theSweepWaitsForASharedCommitAndKeepsTheFileItRecorded() throws {
        let f = try Fixture()
        _ = try f.build.builder(jobs: 1).build()  // claims the folder; every file recorded
        // A built file whose row is not in yet, as in a commit that found its file in place.
        let row = try #require(try f.store.outputs(for: .bug(1)).first)
        try f.store.write { tx in _ = try tx.db.run("DELETE FROM outputs WHERE path = ?", [.text(row.path)]) }
        let file = f.build.out + "/" + row.path
        let sweeper = CatalogBuilder(store: f.other, outputDirectory: f.build.out, recipes: .defaults, jobs: 1)
        let before = Date().addingTimeInterval(60)  // the file counts as old enough to sweep
        let swept = LockWaitProbe<Int>()
        let outcome = try f.store.write(mode: .shared) { tx in
            let outcome = try swept.start(in: tx) {
                try sweeper.sweep(OutputFolder(root: sweeper.outputDirectory), before: before)
            }
            _ = try tx.upsertOutput(row.values)
            return outcome
        }
        #expect(outcome == .waited)
        _ = try swept.joined()
        #expect(FileManager.default.fileExists(atPath: file))
    }

    /// Shared writers run side by side: a lease renewal does not wait for a fenced commit in
    /// flight (the point of the shared mode), but does wait for an exclusive writer.
    @Test(.enabled(if: CatalogBackend.postgresEnabled))
    func aRenewalRunsBesideASharedWriterAndWaitsForAnExclusiveOne() throws {
        let f = try Fixture()
        let other = BuildQueue(store: f.other)
        let beside = LockWaitProbe<Int>()
        let besideOutcome = try f.store.write(mode: .shared) { tx in
            try beside.start(in: tx) { try other.renew(worker: "b", lease: .seconds(60), now: Date()) }
        }
        #expect(besideOutcome == .ranThrough)
        _ = try beside.joined()
        let after = LockWaitProbe<Int>()
        let afterOutcome = try f.store.write { tx in
            try after.start(in: tx) { try other.renew(worker: "b", lease: .seconds(60), now: Date()) }
        }
        #expect(afterOutcome == .waited)
        _ = try after.joined()
    }

    /// The catalog id is created once: two stores asking for it at once, both under the
    /// shared lock, get the same id (the second insert does nothing and reads the first's).
    @Test(.enabled(if: CatalogBackend.postgresEnabled))
    func theCatalogIDIsCreatedOnceUnderTheSharedLock() throws {
        let f = try Fixture()
        let other = f.other
        let second = LockWaitProbe<String>()
        let (first, outcome) = try f.store.write(mode: .shared) { tx in
            let id = try tx.catalogID()
            return (id, try second.start(in: tx) { try other.catalogID() })
        }
        #expect(outcome == .waited)
        #expect(try second.joined() == first)
        #expect(try f.store.catalogID() == first)
    }
}
