// SPDX-License-Identifier: Apache-2.0
/// Told of each outermost write transaction of a store: how long it waited for the catalog's
/// write lock, and that it committed. A seam for measuring (`QueueMeter`, `thumbkit worker
/// --queue-stats`); stores have none unless one is given (`CatalogStore.observeWrites`).
package protocol WriteTransactionObserver: Sendable {
    /// The write lock was taken after `wait`: SQLite's `BEGIN IMMEDIATE` (its busy wait
    /// included), PostgreSQL's `BEGIN; SELECT pg_advisory_xact_lock(…)` (one round trip
    /// included).
    func writeLockTaken(after wait: Duration)
    /// The transaction committed.
    func writeCommitted()
}
