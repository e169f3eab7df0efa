// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

#if canImport(Glibc)
    import Glibc
#endif

/// One database connection that one thread at a time uses, always inside a transaction: the
/// part of a store (`CatalogStore`, ThumbKitBench's history store) that makes a non-Sendable
/// connection safe to share between threads.
///
/// Every use of the connection happens inside `transaction`, which holds `lock` for the whole
/// transaction, so the connection is only ever touched by one thread at a time (SQLite's own
/// per-connection mutex is switched off for that reason). The lock is recursive so that a store
/// method may be called from inside a transaction on the same thread; the inner call becomes a
/// savepoint of the outer transaction.
package final class GuardedConnection: Sendable {
    /// Guards `connection`. `NSRecursiveLock` is Sendable.
    private let lock = NSRecursiveLock()

    /// Only read or used while `lock` is held (see the type's comment), which is what makes
    /// sharing this non-Sendable reference across threads safe. Nil once `close` has closed it.
    nonisolated(unsafe) private var connection: (any CatalogConnection)?

    /// Where the connection went (its `location`), for the error a use after `close` meets.
    private let location: String

    /// Told of each outermost write transaction (a measuring seam; nil in production). Only
    /// read or written while `lock` is held, like `connection`.
    nonisolated(unsafe) private var observer: (any WriteTransactionObserver)?

    /// How deep in `transaction` the thread holding `lock` is, and whether a write in the
    /// current outermost transaction queued claimable work (`requestWake`). Only read or
    /// written while `lock` is held, like `connection`.
    nonisolated(unsafe) private var depth = 0
    nonisolated(unsafe) private var wakeRequested = false

    /// The thread inside `transaction` (holding `lock`), if any: written only by that thread,
    /// on entering and leaving its outermost transaction. Guarded by its own lock so that
    /// another thread may ask (`isHeldByCurrentThread`) without waiting for `lock`.
    private let holder = Locked<UInt?>(nil)

    /// The catalog whose workers a commit that queued work wakes (`QueueWakeNotifier`): the
    /// write-lock key of a PostgreSQL catalog; nil on SQLite, whose workers poll.
    private let wakeCatalog: Int64?

    package init(_ connection: any CatalogConnection) {
        self.connection = connection
        location = connection.location
        wakeCatalog = (connection as? PostgresConnection)?.writeLockKeys?.catalog
    }

    /// Runs `body` with the connection, outside any transaction (settings, state); nil, without
    /// running it, once the connection is closed.
    @discardableResult
    package func withConnection<T>(_ body: (any CatalogConnection) throws -> T) rethrows -> T? {
        lock.lock()
        defer { lock.unlock() }
        guard let connection else { return nil }
        return try body(connection)
    }

    /// Closes the connection now, once any transaction another thread is running on it has
    /// ended: SQLite checkpoints and removes its `-wal` here, PostgreSQL ends the session. From
    /// then on every transaction fails (`CatalogError.database`) without touching the database,
    /// so a reference that outlives its command (a late thread) can never write to it. Closing
    /// twice does nothing; closing from inside a transaction on this thread is a programming
    /// error and traps.
    package func close() {
        lock.lock()
        defer { lock.unlock() }
        precondition(depth == 0, "a catalog connection closed from inside one of its own transactions")
        connection = nil
    }

    /// What a use after `close` fails with.
    package var closedError: CatalogError {
        .database(path: location, reason: "the catalog was closed before this use of it")
    }

    /// Runs `body` in a transaction on the connection (a write transaction when `write`): its
    /// changes are committed together when it returns, or rolled back when it throws. Nested
    /// on the same thread, it runs as a savepoint. `body` must not keep the connection.
    package func transaction<T>(
        write: Bool, mode: WriteLockMode = .exclusive, _ body: (any CatalogConnection) throws -> T
    ) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let connection else { throw closedError }
        if depth == 0 { holder.withLock { $0 = UInt(pthread_self()) } }
        depth += 1
        let result: T
        do {
            defer {
                depth -= 1
                if depth == 0 { holder.withLock { $0 = nil } }
            }
            result = try connection.transaction(write: write, mode: mode, observer: observer) { try body(connection) }
        } catch {
            if depth == 0 { wakeRequested = false }
            throw error
        }
        if depth == 0, wakeRequested {
            wakeRequested = false
            if let wakeCatalog {
                QueueWakeNotifier.shared.committed(catalog: wakeCatalog, connection: connection, guarded: self)
            }
        }
        return result
    }

    /// Whether the calling thread is inside a transaction on this connection (so a read it
    /// starts must nest in that transaction, to see its uncommitted changes).
    package var isHeldByCurrentThread: Bool {
        holder.withLock { $0 } == UInt(pthread_self())
    }

    /// The transaction running on this thread queued claimable work: after its outermost
    /// commit, the catalog's idle workers are woken (a rollback cancels it). Called from
    /// inside `transaction`.
    package func requestWake() {
        lock.lock()
        defer { lock.unlock() }
        wakeRequested = true
    }

    /// The observer `observeWrites` set, if any.
    package var writeObserver: (any WriteTransactionObserver)? {
        lock.lock()
        defer { lock.unlock() }
        return observer
    }

    /// The transaction running on this thread holds, under a claim of its own, everything it
    /// queued: no worker is to be woken for it. Called from inside `transaction`.
    package func cancelWake() {
        lock.lock()
        defer { lock.unlock() }
        wakeRequested = false
    }

    /// From now on, tells `observer` of each outermost write transaction.
    package func observeWrites(_ observer: any WriteTransactionObserver) {
        lock.lock()
        defer { lock.unlock() }
        self.observer = observer
    }
}
