// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// The build queue's rows: queued with their change, claimed under leases, renewed, expired,
/// fenced, failed and retried, on each backend (the schema's triggers are SQLite's and
/// PostgreSQL's own). Times come from a fake clock.
struct BuildQueueTests {
    /// A test's catalog and queue on one backend.
    struct Fixture {
        let workspace: TestWorkspace
        let store: CatalogStore
        let queue: BuildQueue
        let clock = FakeBuildClock()

        init(_ backend: CatalogBackend) throws {
            workspace = try TestWorkspace()
            store = try workspace.store(backend: backend)
            queue = BuildQueue(store: store, maxAttempts: 3)
        }

        /// Adds `count` bugs (queued by the schema's triggers).
        func addBugs(_ count: Int) throws {
            try store.write { tx in
                for index in 0..<count { try tx.addBug(title: "Bug \(index)") }
            }
        }

        func entry(_ record: RecordRef) throws -> BuildQueue.Entry? {
            try queue.entries().first { $0.record == record }
        }
    }

    @Test(arguments: CatalogBackend.all) func aRecordIsQueuedInTheTransactionThatChangesItAndOnlyIfItCommits(
        backend: CatalogBackend
    ) throws {
        let f = try Fixture(backend)
        let store = f.store
        let queue = f.queue
        try f.addBugs(2)
        #expect(try queue.entries().map(\.record) == [.bug(1), .bug(2)])
        #expect(try queue.entries().allSatisfy { $0.workerID == nil && $0.attempts == 0 })
        // The triggers write `Timestamp`'s text on both backends (exports compare bytes).
        for entry in try queue.entries() {
            let date = try #require(Timestamp.date(from: entry.enqueuedAt), "\(entry.enqueuedAt)")
            #expect(Timestamp.string(from: date) == entry.enqueuedAt)
            #expect(abs(date.timeIntervalSinceNow) < 60)
        }
        // (Added after the others: a rolled-back insert uses up a PostgreSQL identity value.)
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try store.write { tx in
                try tx.addBug(title: "Rolled back")
                throw Abort()
            }
        }
        #expect(try queue.entries().map(\.record) == [.bug(1), .bug(2)])
    }

    @Test(arguments: CatalogBackend.all) func aClaimTakesFreeRowsOnlyLeasesThemAndCountsTheAttempt(
        backend: CatalogBackend
    ) throws {
        let f = try Fixture(backend)
        let queue = f.queue
        let clock = f.clock
        try f.addBugs(3)
        let a = try queue.claim(worker: "a", limit: 2, lease: .seconds(10), now: clock.now())
        #expect(a.map(\.record) == [.bug(1), .bug(2)] && a.allSatisfy { $0.attempt == 1 })
        let b = try queue.claim(worker: "b", limit: 5, lease: .seconds(10), now: clock.now())
        #expect(b.map(\.record) == [.bug(3)])
        #expect(try queue.claim(worker: "c", limit: 5, lease: .seconds(10), now: clock.now()) == [])
        let held = try #require(try f.entry(.bug(1)))
        #expect(held.workerID == "a" && held.attempts == 1)
        #expect(held.leaseUntil == BuildQueue.millis(clock.now()) + 10_000)
        #expect(try queue.unfinished(worker: "a", now: clock.now()) == 1)
    }

    @Test(arguments: CatalogBackend.all) func anExpiredLeaseIsClaimedAgainAndTheOldHolderIsFencedOff(
        backend: CatalogBackend
    ) throws {
        let f = try Fixture(backend)
        let store = f.store
        let queue = f.queue
        let clock = f.clock
        try f.addBugs(1)
        let a = try queue.claim(worker: "a", limit: 1, lease: .seconds(2), now: clock.now())
        clock.advance(1.9)
        #expect(try queue.claim(worker: "b", limit: 1, lease: .seconds(2), now: clock.now()) == [])
        clock.advance(0.2)
        let b = try queue.claim(worker: "b", limit: 1, lease: .seconds(2), now: clock.now())
        #expect(b.map(\.record) == [.bug(1)] && b.map(\.attempt) == [2])
        // The late worker's commit is refused, and the refusal rolls its transaction back.
        #expect(throws: BuildQueue.LostClaim.self) {
            try store.write { tx in
                try tx.rate(bugID: 1, rating: 4)
                try queue.finish(a[0], worker: "a", failure: nil, retryAt: clock.now(), in: tx)
            }
        }
        #expect(try store.read { try $0.bug(id: 1) }?.rating == .zero)
        #expect(try f.entry(.bug(1))?.workerID == "b")
        try queue.finish(b[0], worker: "b", failure: nil, retryAt: clock.now())
        #expect(try queue.entries() == [])
    }

    @Test(arguments: CatalogBackend.all) func renewingKeepsTheLeaseAndOnlyTheHoldersRows(backend: CatalogBackend) throws
    {
        let f = try Fixture(backend)
        let queue = f.queue
        let clock = f.clock
        try f.addBugs(2)
        _ = try queue.claim(worker: "a", limit: 1, lease: .seconds(3), now: clock.now())
        _ = try queue.claim(worker: "b", limit: 1, lease: .seconds(3), now: clock.now())
        clock.advance(2)
        #expect(try queue.renew(worker: "a", lease: .seconds(3), now: clock.now()) == 1)
        clock.advance(2)
        // b's lease ran out and is taken; a's renewed one is not.
        let c = try queue.claim(worker: "c", limit: 5, lease: .seconds(3), now: clock.now())
        #expect(c.map(\.record) == [.bug(2)])
        #expect(try f.entry(.bug(1))?.workerID == "a")
    }

    @Test(arguments: CatalogBackend.all) func aFailedAttemptGoesBackWithItsReasonWaitsAndStopsAtMaxAttempts(
        backend: CatalogBackend
    ) throws {
        let f = try Fixture(backend)
        let store = f.store
        let queue = f.queue
        let clock = f.clock
        try f.addBugs(1)
        for attempt in 1...3 {
            let claims = try queue.claim(worker: "a", limit: 1, lease: .seconds(5), now: clock.now())
            #expect(claims.map(\.record) == [.bug(1)] && claims.map(\.attempt) == [attempt])
            try queue.finish(
                claims[0], worker: "a", failure: "/x.png: missing", retryAt: clock.now().addingTimeInterval(1))
            let failed = try #require(try f.entry(.bug(1)))
            #expect(failed.workerID == nil && failed.lastError == "/x.png: missing" && failed.attempts == attempt)
            #expect(try queue.claim(worker: "a", limit: 1, lease: .seconds(5), now: clock.now()) == [])
            clock.advance(1)
        }
        // Out of attempts: left alone until it changes, which starts its attempts again.
        clock.advance(100)
        #expect(try queue.claim(worker: "a", limit: 1, lease: .seconds(5), now: clock.now()) == [])
        try store.write { tx in _ = try tx.rate(bugID: 1, rating: 2) }
        #expect(try f.entry(.bug(1))?.attempts == 0 && f.entry(.bug(1))?.lastError == nil)
        #expect(try queue.claim(worker: "a", limit: 1, lease: .seconds(5), now: clock.now()).count == 1)
    }

    @Test(arguments: CatalogBackend.all) func aChangeToAHeldRecordFreesItsRowAndFencesItsWorker(backend: CatalogBackend)
        throws
    {
        let f = try Fixture(backend)
        let store = f.store
        let queue = f.queue
        let clock = f.clock
        try f.addBugs(1)
        let a = try queue.claim(worker: "a", limit: 1, lease: .seconds(60), now: clock.now())
        try store.write { tx in _ = try tx.rate(bugID: 1, rating: 3) }
        #expect(try f.entry(.bug(1))?.workerID == nil)
        #expect(throws: BuildQueue.LostClaim.self) {
            try queue.finish(a[0], worker: "a", failure: nil, retryAt: clock.now())
        }
        // A write that leaves the built fields alone does not disturb the holder.
        _ = try queue.claim(worker: "b", limit: 1, lease: .seconds(60), now: clock.now())
        try store.write { tx in _ = try tx.db.run("UPDATE bugs SET updated_at = updated_at") }
        #expect(try f.entry(.bug(1))?.workerID == "b")
    }

    @Test(arguments: CatalogBackend.all) func bugsWaitWhileAWorkerHoldsTheAppEntryFoodsDoNot(backend: CatalogBackend)
        throws
    {
        let f = try Fixture(backend)
        let store = f.store
        let queue = f.queue
        let clock = f.clock
        let workspace = f.workspace
        try f.addBugs(2)
        try store.write { tx in _ = try tx.addFood(category: try tx.addCategory("C").name, name: "Soup", image: nil) }
        try workspace.addAssets(to: store)  // the rating icons queue the app and every bug
        let first = try queue.claim(worker: "a", limit: 1, lease: .seconds(10), now: clock.now())
        #expect(first.map(\.record) == [.app])
        let meanwhile = try queue.claim(worker: "b", limit: 10, lease: .seconds(10), now: clock.now())
        #expect(meanwhile.map(\.record) == [.food(1)])
        try queue.finish(first[0], worker: "a", failure: nil, retryAt: clock.now())
        let after = try queue.claim(worker: "b", limit: 10, lease: .seconds(10), now: clock.now())
        #expect(after.map(\.record) == [.bug(1), .bug(2)])
    }

    /// Four `build -j 1` started together: one found nothing to claim while another held the
    /// app entry, that one committed it, and the first then saw no live lease of anyone and
    /// ended at once, having made nothing, with the bugs claimable. `unfinished` reads the
    /// held rows and the claimable ones in one snapshot, so it sees the freed bugs.
    @Test(arguments: CatalogBackend.all) func aClaimThatFoundNothingBeforeTheAppEntryCommittedStillSeesTheBugs(
        backend: CatalogBackend
    ) throws {
        let f = try Fixture(backend)
        let (store, queue, clock) = (f.store, f.queue, f.clock)
        try f.addBugs(2)
        try f.workspace.addAssets(to: store)  // the rating icons queue the app and every bug
        let app = try queue.claim(worker: "a", limit: 1, lease: .seconds(10), now: clock.now())
        #expect(app.map(\.record) == [.app])
        #expect(try queue.claim(worker: "b", limit: 10, lease: .seconds(10), now: clock.now()) == [])
        #expect(try queue.unfinished(worker: "b", now: clock.now()) == 3)  // the app entry, and the bugs
        try queue.finish(app[0], worker: "a", failure: nil, retryAt: clock.now())
        // Nobody holds anything now, but the bugs are there to claim: b must not end.
        #expect(try queue.unfinished(worker: "b", now: clock.now()) == 2)
        // Claimed by b: nothing left for b but its own; a waits for them until they are done.
        let bugs = try queue.claim(worker: "b", limit: 10, lease: .seconds(10), now: clock.now())
        #expect(bugs.map(\.record) == [.bug(1), .bug(2)])
        #expect(try queue.unfinished(worker: "b", now: clock.now()) == 0)
        #expect(try queue.unfinished(worker: "a", now: clock.now()) == 2)
        for bug in bugs { try queue.finish(bug, worker: "b", failure: nil, retryAt: clock.now()) }
        #expect(try queue.unfinished(worker: "a", now: clock.now()) == 0)
    }

    @Test(arguments: CatalogBackend.all) func releasingHandsRowsBackWithoutCountingTheAttempt(backend: CatalogBackend)
        throws
    {
        let f = try Fixture(backend)
        let queue = f.queue
        let clock = f.clock
        try f.addBugs(1)
        let a = try queue.claim(worker: "a", limit: 1, lease: .seconds(10), now: clock.now())
        try queue.release(a, worker: "a")
        let row = try #require(try f.entry(.bug(1)))
        #expect(row.workerID == nil && row.leaseUntil == nil && row.attempts == 0)
    }

    @Test(arguments: CatalogBackend.all) func aWorkerThatLostARowAndClaimedItAgainCannotCommitTheFirstClaim(
        backend: CatalogBackend
    ) throws {
        let f = try Fixture(backend)
        let store = f.store
        let queue = f.queue
        let clock = f.clock
        try f.addBugs(1)
        // The first claim is lost to a change (row freed, attempts back to 0), and the same
        // worker (another lane of it) claims the record again: same worker id, same attempt.
        let first = try queue.claim(worker: "a", limit: 1, lease: .seconds(30), now: clock.now())
        try store.write { tx in _ = try tx.rate(bugID: 1, rating: 3) }
        let second = try queue.claim(worker: "a", limit: 1, lease: .seconds(30), now: clock.now())
        #expect(second.map(\.record) == [.bug(1)] && second.map(\.attempt) == first.map(\.attempt))
        #expect(second[0].sequence > first[0].sequence)
        // The stale first claim can neither commit (rolled back) nor finish or fail the row.
        #expect(throws: BuildQueue.LostClaim.self) {
            try store.write { tx in
                try queue.check(first[0], worker: "a", in: tx)
                try tx.rate(bugID: 1, rating: 5)
            }
        }
        #expect(try store.read { try $0.bug(id: 1) }?.rating == Rating(exactly: 3))
        #expect(throws: BuildQueue.LostClaim.self) {
            try queue.finish(first[0], worker: "a", failure: nil, retryAt: clock.now())
        }
        #expect(throws: BuildQueue.LostClaim.self) {
            try queue.finish(first[0], worker: "a", failure: "stale", retryAt: clock.now())
        }
        try queue.release(first, worker: "a")
        let row = try #require(try f.entry(.bug(1)))
        #expect(row.workerID == "a" && row.claimSequence == second[0].sequence && row.lastError == nil)
        #expect(row.attempts == 1)

        // The same after the lease ran out and the same worker claimed the row again.
        clock.advance(31)
        let third = try queue.claim(worker: "a", limit: 1, lease: .seconds(30), now: clock.now())
        #expect(third.map(\.attempt) == [2] && third[0].sequence > second[0].sequence)
        #expect(throws: BuildQueue.LostClaim.self) {
            try store.write { tx in try queue.check(second[0], worker: "a", in: tx) }
        }
        try store.write { tx in try queue.check(third[0], worker: "a", in: tx) }
        try queue.finish(third[0], worker: "a", failure: nil, retryAt: clock.now())
        #expect(try queue.entries() == [])

        // A row made again after its record was built never reuses a sequence.
        try store.write { tx in _ = try tx.rate(bugID: 1, rating: 4) }
        #expect(try f.entry(.bug(1))?.claimSequence == 0)
        let fourth = try queue.claim(worker: "a", limit: 1, lease: .seconds(30), now: clock.now())
        #expect(fourth.map(\.attempt) == [1] && fourth[0].sequence > third[0].sequence)
    }

    @Test(arguments: CatalogBackend.all) func deletingARecordRemovesItsRow(backend: CatalogBackend) throws {
        let f = try Fixture(backend)
        let store = f.store
        let queue = f.queue
        try f.addBugs(2)
        try store.write { tx in try tx.db.run("DELETE FROM bugs WHERE id = 1") }
        #expect(try queue.entries().map(\.record) == [.bug(2)])
    }

    @Test func eachDialectClaimsItsOwnWay() {
        guard case .returning(let postgres) = BuildQueueSQL(dialect: .postgres).claim else {
            Issue.record("PostgreSQL claims in one UPDATE … RETURNING")
            return
        }
        #expect(postgres.contains("FOR UPDATE SKIP LOCKED") && postgres.contains("RETURNING"))
        guard case .selectThenUpdate(let select, _, _) = BuildQueueSQL(dialect: .sqlite).claim else {
            Issue.record("SQLite claims with a SELECT then UPDATEs in its exclusive write transaction")
            return
        }
        #expect(!select.contains("SKIP LOCKED") && select.hasSuffix("LIMIT ?"))
    }
}
