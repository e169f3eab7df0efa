// SPDX-License-Identifier: Apache-2.0
import Foundation

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
    /// sharing this non-Sendable reference across threads safe.
    nonisolated(unsafe) private let connection: any CatalogConnection

    /// Told of each outermost write transaction (a measuring seam; nil in production). Only
    /// read or written while `lock` is held, like `connection`.
    nonisolated(unsafe) private var observer: (any WriteTransactionObserver)?

    /// How deep in `transaction` the thread holding `lock` is, and whether a write in the
    /// current outermost transaction queued claimable work (`requestWake`). Only read or
    /// written while `lock` is held, like `connection`.
    nonisolated(unsafe) private var depth = 0
    nonisolated(unsafe) private var wakeRequested = false

    /// The catalog whose workers a commit that queued work wakes (`QueueWakeNotifier`): the
    /// write-lock key of a PostgreSQL catalog; nil on SQLite, whose workers poll.
    private let wakeCatalog: Int64?

    package init(_ connection: any CatalogConnection) {
        self.connection = connection
        wakeCatalog = (connection as? PostgresConnection)?.writeLockKeys?.catalog
    }

    /// Runs `body` in a transaction on the connection (a write transaction when `write`): its
    /// changes are committed together when it returns, or rolled back when it throws. Nested
    /// on the same thread, it runs as a savepoint. `body` must not keep the connection.
    /// Runs `body` with the connection, outside any transaction (settings, state).
    package func withConnection<T>(_ body: (any CatalogConnection) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }

    package func transaction<T>(
        write: Bool, mode: WriteLockMode = .exclusive, _ body: (any CatalogConnection) throws -> T
    ) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        depth += 1
        let result: T
        do {
            defer { depth -= 1 }
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

    /// The transaction running on this thread queued claimable work: after its outermost
    /// commit, the catalog's idle workers are woken (a rollback cancels it). Called from
    /// inside `transaction`.
    package func requestWake() {
        lock.lock()
        defer { lock.unlock() }
        wakeRequested = true
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
