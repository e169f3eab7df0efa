// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKitCatalog

/// A value shared with a helper thread. @unchecked Sendable: every access holds `lock`.
private final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// Runs `body` on another thread (with its own connections: they are not Sendable); the
/// returned semaphore is signalled when it ends.
private func background(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        done.signal()
    }
    return done
}

/// Advisory locks: the PostgreSQL counterpart of `BEGIN IMMEDIATE`.
struct PostgresAdvisoryLockTests {
    @Test func aHeldLockBlocksASecondConnectionUntilCommit() throws {
        try PostgresFixture.withSchema { db, scratch in
            let key = PostgresConnection.advisoryKey(scratch.schema)
            let acquired = Shared<ContinuousClock.Instant?>(nil)
            let failure = Shared<String?>(nil)
            var released = ContinuousClock.now
            let other = try scratch.connect(lockTimeoutMilliseconds: 200)
            var done: DispatchSemaphore?
            try db.transaction(write: true) { () throws -> Void in
                try db.advisoryTransactionLock(key)
                // Another connection cannot take it: try-lock says no, and a wait times out as
                // locked (which aborts that connection's transaction, so it is rolled back).
                #expect(try other.transaction(write: true) { try other.tryAdvisoryTransactionLock(key) } == false)
                #expect {
                    try other.transaction(write: true) { try other.advisoryTransactionLock(key) }
                } throws: { error in
                    guard case CatalogError.locked(_, let reason) = error else { return false }
                    return reason.contains("55P03")
                }
                done = background {
                    do {
                        let waiter = try scratch.connect(lockTimeoutMilliseconds: 60_000)
                        try waiter.transaction(write: true) { () throws -> Void in
                            try waiter.advisoryTransactionLock(key)
                            acquired.value = .now
                        }
                    } catch {
                        failure.value = "\(error)"
                    }
                }
                // Wait until the waiter is queued on the lock (only the server's lock table shows
                // it, so that is polled), then hold it a little longer.
                var waiting = 0
                let queued = try pollUntil(timeout: 10, every: 0.05) {
                    waiting =
                        try db.queryFirst("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted") {
                            $0.int(0)
                        } ?? 0
                    return waiting != 0
                }
                #expect(queued, "the waiter was not queued on the lock within 10 s")
                #expect(waiting == 1)
                #expect(done?.wait(timeout: .now() + 0.3) == .timedOut)
                #expect(acquired.value == nil)
                released = .now
            }
            #expect(done?.wait(timeout: .now() + 30) == .success)
            #expect(failure.value == nil)
            let at = try #require(acquired.value)
            #expect(at >= released)
        }
    }

    @Test func aLockOutsideATransactionIsRefused() throws {
        try PostgresFixture.withSchema { db, _ in
            #expect(throws: CatalogError.self) { try db.advisoryTransactionLock(42) }
            #expect(
                PostgresConnection.advisoryKey("thumbkit.migrate") == PostgresConnection.advisoryKey("thumbkit.migrate")
            )
            #expect(PostgresConnection.advisoryKey("a") != PostgresConnection.advisoryKey("b"))
        }
    }
}

/// LISTEN / NOTIFY between two connections, and surviving a reconnect.
struct PostgresNotifyTests {
    @Test func aNotifyFromAnotherConnectionWakesAWaiter() throws {
        try PostgresFixture.withSchema { db, scratch in
            let channel = "tk wake " + scratch.schema  // any name works: it is quoted
            try db.listen(channel)
            let sender = Shared<Int32>(0)
            // A handshake, not a pause: the sender notifies once this thread is on its way into
            // the wait, so the NOTIFY comes while it waits. (Either way it is delivered the same
            // way: libpq reads the socket only inside the wait, so nothing sent to it is taken
            // before the wait starts.)
            let waiting = DispatchSemaphore(value: 0)
            let done = background {
                guard let other = try? scratch.connect() else { return }
                sender.value = other.backendPID
                guard waiting.wait(timeout: .now() + 30) == .success else { return }
                try? other.notify(channel, payload: "bug 7")
            }
            let start = ContinuousClock.now
            waiting.signal()
            let notification = try db.waitForNotification(timeout: .seconds(30))
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(notification == PostgresNotification(channel: channel, payload: "bug 7", senderPID: sender.value))
            #expect(ContinuousClock.now - start < .seconds(30))  // woken, not timed out
        }
    }

    @Test func onlyCommittedNotifiesArriveAndWaitingTimesOut() throws {
        try PostgresFixture.withSchema { db, scratch in
            let channel = "tk_c_" + scratch.schema
            try db.listen(channel)
            let other = try scratch.connect()
            struct Boom: Error {}
            _ = try? other.transaction(write: true) {
                try other.notify(channel, payload: "rolled back")
                throw Boom()
            }
            try other.transaction(write: true) { try other.notify(channel, payload: "committed") }
            #expect(try db.waitForNotification(timeout: .seconds(10))?.payload == "committed")
            #expect(try db.waitForNotification(timeout: .milliseconds(200)) == nil)
            try db.unlisten(channel)
            try other.notify(channel, payload: "after unlisten")
            #expect(try db.waitForNotification(timeout: .milliseconds(200)) == nil)
        }
    }

    @Test func aConnectionKilledByTheServerReconnectsAndListensAgain() throws {
        try PostgresFixture.withSchema { db, scratch in
            let channel = "tk_r_" + scratch.schema
            let victim = try scratch.connect()
            try victim.listen(channel)
            #expect(
                try db.queryFirst("SELECT pg_terminate_backend(?::int)", [.integer(Int(victim.backendPID))]) {
                    $0.int(0)
                } == 1)
            #expect {
                _ = try victim.queryFirst("SELECT 1") { $0.int(0) }
            } throws: { error in
                guard case CatalogError.open(_, let reason) = error else { return false }
                return reason.hasPrefix("connection lost")
            }
            #expect(!victim.isConnected)
            try victim.reconnect()
            #expect(victim.isConnected)
            #expect(
                try victim.queryFirst("SELECT count(*) FROM pg_tables WHERE schemaname = ?", [.text(scratch.schema)]) {
                    $0.int(0)
                } == 0)
            try db.notify(channel, payload: "again")
            #expect(try victim.waitForNotification(timeout: .seconds(10))?.payload == "again")
        }
    }
}
