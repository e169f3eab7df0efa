// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// The debounce of the build queue's wake-up, on a clock the test moves.
struct QueueWakeNotifierTests {
    @Test func oneWakeUpPerWindowAndALateRequestIsSentWhenTheWindowEnds() {
        let notifier = QueueWakeNotifier(window: .milliseconds(50))
        let start = ContinuousClock.now
        #expect(notifier.request(catalog: 1, now: start) == .sendNow)
        // Inside the window: scheduled for its end, once; later requests ride along.
        #expect(notifier.request(catalog: 1, now: start + .milliseconds(10)) == .sendLater(.milliseconds(40)))
        #expect(notifier.request(catalog: 1, now: start + .milliseconds(20)) == .covered)
        // Another catalog has a window of its own.
        #expect(notifier.request(catalog: 2, now: start + .milliseconds(20)) == .sendNow)
        // The scheduled one goes out; the next request waits for a window from then.
        notifier.scheduledSent(catalog: 1, now: start + .milliseconds(50))
        #expect(notifier.request(catalog: 1, now: start + .milliseconds(60)) == .sendLater(.milliseconds(40)))
        notifier.scheduledSent(catalog: 1, now: start + .milliseconds(100))
        #expect(notifier.request(catalog: 1, now: start + .milliseconds(200)) == .sendNow)
    }
}

/// The wake-up on real PostgreSQL: sent after a commit that queued work, in a transaction of its
/// own; never by the claims and fenced commits that drain the queue.
@Suite(.enabled(if: CatalogBackend.postgresEnabled, "needs PostgreSQL (THUMBKIT_TEST_POSTGRES_URL)"))
struct QueueWakePostgresTests {
    /// A connection listening on `store`'s channel.
    static func listener(_ store: CatalogStore) throws -> PostgresConnection {
        guard case .postgres(let url) = store.location else { throw CatalogError.database(path: "", reason: "") }
        let connection = try PostgresConnection(url: url)
        let channel = try connection.queryFirst("SELECT build_queue_channel()") { $0.string(0) }
        try connection.listen(try #require(channel))
        return connection
    }

    /// How many notifications arrive until none has come for `quiet`.
    static func received(_ connection: PostgresConnection, quiet: Duration = .milliseconds(300)) throws -> Int {
        var count = 0
        while try connection.waitForNotification(timeout: quiet) != nil { count += 1 }
        return count
    }

    @Test func aRatingWakesAListenerAndTheTriggersSendNothing() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: .postgres)
        let bug = try store.write { tx in try tx.addBug(title: "Ladybird") }
        let listening = try Self.listener(store)
        try store.write { tx in _ = try tx.rate(bugID: bug.id, rating: 4) }
        let note = try #require(try listening.waitForNotification(timeout: .seconds(10)))
        #expect(note.payload.isEmpty)
        // The same change made without the store (the triggers alone) queues the row, silently.
        try store.write { tx in
            try tx.db.run("UPDATE bugs SET rating = 2 WHERE id = ?", [.integer(bug.id)])
        }
        #expect(try Self.received(listening) == 0, "a trigger sent a NOTIFY")
        let queued = try store.read { tx in try tx.db.queryFirst("SELECT count(*) FROM build_queue") { $0.int(0) } }
        #expect(queued == 1)
    }

    @Test func drainingTheQueueSendsNoNotificationPerRecord() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: .postgres)
        let listening = try Self.listener(store)
        let count = 40
        try store.write { tx in
            for index in 0..<count { _ = try tx.addBug(title: "Bug \(index)") }
        }
        // One write transaction queued them all: one wake-up (at most two with the debounce).
        let queuedNotes = try Self.received(listening)
        #expect((1...2).contains(queuedNotes))
        let queue = BuildQueue(store: store)
        var drained = 0
        while case let claims = try queue.claim(worker: "w", limit: 7, lease: .seconds(60), now: Date()),
            !claims.isEmpty
        {
            for claim in claims {
                try queue.finish(claim, worker: "w", failure: nil, retryAt: Date())
                drained += 1
            }
        }
        #expect(drained == count)
        #expect(try Self.received(listening) == 0, "claims or commits sent notifications")
        let left = try store.read { tx in try tx.db.queryFirst("SELECT count(*) FROM build_queue") { $0.int(0) } }
        #expect(left == 0)
    }

    /// While one worker holds the app entry no other can claim a bug, and goes idle; the commit
    /// that lets go of the entry wakes them, built or put back failed, so they need not sleep
    /// through their poll while the queue is full.
    @Test(arguments: [false, true])
    func lettingGoOfTheAppEntryWakesTheWorkersItHeldBack(failed: Bool) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: .postgres)
        let queue = BuildQueue(store: store)
        try store.write { tx in
            _ = try tx.addBug(title: "Ladybird")
            try queue.enqueue([RecordRef(kind: .app, id: 0)], in: tx)
        }
        let listening = try Self.listener(store)
        let app = try queue.claim(worker: "w1", limit: 1, lease: .seconds(60), now: Date())
        #expect(app.map(\.record) == [RecordRef(kind: .app, id: 0)])
        #expect(try queue.claim(worker: "w2", limit: 4, lease: .seconds(60), now: Date()).isEmpty)
        #expect(try Self.received(listening) == 0, "a claim sent a notification")

        try store.write { tx in
            try queue.check(app[0], worker: "w1", in: tx)
            try queue.settle(
                app[0].record, failure: failed ? "no logo" : nil, attempts: 1, retryAt: Date().addingTimeInterval(60),
                in: tx)
        }
        #expect(try listening.waitForNotification(timeout: .seconds(10)) != nil, "no wake-up for the held bugs")
        let bugs = try queue.claim(worker: "w2", limit: 4, lease: .seconds(60), now: Date())
        #expect(bugs.map(\.record.kind) == [.bug])
    }

    /// A wake-up put off to the end of its window goes out while every thread of Dispatch's
    /// global queue is busy, as a batch's `concurrentPerform` keeps them: it was scheduled on that
    /// queue, and waited for them (more than 10 s under TSan).
    @Test func aWakeUpPutOffToItsWindowsEndGoesOutWhileDispatchIsBusy() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: .postgres)
        let bug = try store.write { tx in try tx.addBug(title: "Ladybird") }
        let listening = try Self.listener(store)
        _ = try Self.received(listening, quiet: .milliseconds(100))

        // Every thread the global queue may run at once, and more, held until the end.
        let blockers = ProcessInfo.processInfo.activeProcessorCount * 4
        let release = DispatchSemaphore(value: 0)
        defer { for _ in 0..<blockers { release.signal() } }
        for _ in 0..<blockers { DispatchQueue.global().async { release.wait() } }

        // Two commits inside one window: the first sends at once, the second at the window's end.
        try store.write { tx in _ = try tx.rate(bugID: bug.id, rating: 4) }
        try store.write { tx in _ = try tx.rate(bugID: bug.id, rating: 2) }
        #expect(try listening.waitForNotification(timeout: .seconds(10)) != nil)
        #expect(
            try listening.waitForNotification(timeout: .seconds(5)) != nil,
            "the wake-up put off to the window's end did not come while Dispatch's global queue was busy")
    }
}
