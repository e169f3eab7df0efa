// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The catalog's build queue (`build_queue`, schema version 4): records that need building,
/// shared by any number of workers in any number of processes (docs/scale-out.md).
///
/// ### Leases and fencing
/// A worker claims a few rows at a time in one write transaction, writing its id and a lease
/// (`now + lease`) on each; while it builds, it renews the leases it holds (`renew`). A row whose
/// lease ran out (its worker died or stalled) is claimable again, and the next claim overwrites
/// the worker id. Every claim also takes the next value of a counter that only grows (its claim
/// sequence, `claim_seq`). A worker commits a built record's rows only in a transaction that
/// first finds the row *with its own worker id and claim sequence* (`check`, or `complete`): if
/// there is none, somebody else holds the record now (or the record changed and its row was
/// freed, or this very worker claimed it again since), and the commit is refused. So at most one
/// claim of a record is ever recorded, however late a stalled one wakes up.
/// Last in that transaction, `settle` removes the row or puts it back failed. A claimed record
/// with nothing to commit is finished by `finish`, which removes or puts back the row only where it
/// still carries the worker's id and claim sequence.
///
/// Times are epoch milliseconds from the worker's `BuildClock`: workers of one SQLite catalog
/// share a host and its clock; PostgreSQL workers on several hosts need clocks within a small
/// part of the lease of each other (NTP).
public struct BuildQueue: Sendable {
    /// One claimed row.
    public struct Claim: Sendable, Hashable {
        /// The record.
        public let record: RecordRef
        /// Which claim of the record this is since it last changed (1 for the first).
        public let attempt: Int
        /// The claim's sequence number (`claim_seq`): greater than that of every earlier claim
        /// of any record, never reused. The fence compares it with the worker id.
        public let sequence: Int
    }

    /// One row of the queue.
    public struct Entry: Sendable, Hashable, Codable {
        public let record: RecordRef
        /// The worker holding it, if any (its lease may have run out).
        public let workerID: String?
        /// When its lease ends, or when a failed record may be tried again (epoch ms).
        public let leaseUntil: Int64?
        public let attempts: Int
        /// Why the last attempt failed.
        public let lastError: String?
        /// When it was queued (`Timestamp` text).
        public let enqueuedAt: String
        /// The sequence of its last claim (0 before any).
        public let claimSequence: Int
    }

    /// The lost-claim refusal: thrown inside a commit whose row another worker holds now.
    public struct LostClaim: Error, CustomStringConvertible, Sendable {
        public let record: RecordRef
        public let workerID: String

        public var description: String {
            "\(record): the build claim of worker \(workerID) was lost (its lease ran out and another worker "
                + "took the record, or the record changed); nothing was recorded"
        }
    }

    /// The catalog.
    public let store: CatalogStore
    /// The statements for the catalog's database.
    package let sql: BuildQueueSQL
    /// Claims per record before it is left alone (until it changes or a `build` plans it).
    public let maxAttempts: Int
    /// Told of each claim that took rows, with its latency (`thumbkit worker --queue-stats`).
    package var meter: QueueMeter?

    /// The queue of `store`'s catalog, with the statements of its database.
    public init(store: CatalogStore, maxAttempts: Int = 5) {
        self.init(store: store, sql: BuildQueueSQL(dialect: store.location.dialect), maxAttempts: maxAttempts)
    }

    package init(store: CatalogStore, sql: BuildQueueSQL, maxAttempts: Int) {
        self.store = store
        self.sql = sql
        self.maxAttempts = max(1, maxAttempts)
    }

    /// Epoch milliseconds.
    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    /// Queues `records` (or frees and resets their rows) in `tx`, the transaction that changed
    /// them.
    public func enqueue(_ records: [RecordRef], in tx: CatalogTransaction) throws {
        if !records.isEmpty { tx.queuedWork() }
        for record in records {
            try tx.db.run(sql.enqueue, [.text(record.kind.rawValue), .integer(record.id), .text(tx.now)])
        }
    }

    /// Claims up to `limit` claimable rows for `worker`, each leased until `now + lease`.
    public func claim(worker: String, limit: Int, lease: Duration, now: Date) throws -> [Claim] {
        let start = ContinuousClock.now
        let claims = try claimRows(worker: worker, limit: limit, lease: lease, now: now)
        meter?.claimed(rows: claims.count, in: ContinuousClock.now - start)
        return claims
    }

    private func claimRows(worker: String, limit: Int, lease: Duration, now: Date) throws -> [Claim] {
        let nowMs = Self.millis(now)
        let until = nowMs + lease.milliseconds
        // Claims exclude each other, and only each other (`WriteLockMode.claim`).
        return try store.write(mode: .claim) { tx in
            switch sql.claim {
            case .returning(let statement):
                return try tx.db.query(
                    statement,
                    [
                        .text(worker), .integer(Int(until)), .integer(Int(nowMs)), .integer(maxAttempts),
                        .integer(Int(nowMs)), .integer(max(1, limit)),
                    ]
                ) { row throws(CatalogError) in
                    Claim(record: try Self.record(row), attempt: row.int(2), sequence: row.int(3))
                }
            case .selectThenUpdate(let select, let next, let update):
                let found = try tx.db.query(
                    select,
                    [.integer(Int(nowMs)), .integer(maxAttempts), .integer(Int(nowMs)), .integer(max(1, limit))]
                ) { row throws(CatalogError) in (record: try Self.record(row), attempts: row.int(2)) }
                guard !found.isEmpty else { return [] }
                guard let sequence = try tx.db.queryFirst(next, { $0.int(0) }) else {
                    throw CatalogError.corrupt(
                        path: "build_claim_sequence", reason: "the claim counter's row is missing")
                }
                for (record, _) in found {
                    try tx.db.run(
                        update,
                        [
                            .text(worker), .integer(Int(until)), .integer(sequence), .text(record.kind.rawValue),
                            .integer(record.id),
                        ])
                }
                return found.map { Claim(record: $0.record, attempt: $0.attempts + 1, sequence: sequence) }
            }
        }
    }

    static func record(_ row: CatalogRow) throws(CatalogError) -> RecordRef {
        guard let kind = RecordKind(rawValue: row.string(0)) else {
            throw CatalogError.corrupt(path: "build_queue", reason: "unknown record kind '\(row.string(0))'")
        }
        return RecordRef(kind: kind, id: row.int(1))
    }

    /// Extends every lease `worker` holds to `now + lease`; returns how many rows it holds.
    @discardableResult
    public func renew(worker: String, lease: Duration, now: Date) throws -> Int {
        // Shared: the UPDATE row-locks each row it renews; other workers' rows are untouched.
        try store.write(mode: .shared) { tx in
            try tx.db.run(sql.renew, [.integer(Int(Self.millis(now) + lease.milliseconds)), .text(worker)])
        }
    }

    /// The parameters that name `claim`'s row as `worker` holds it (kind, id, worker, claim
    /// sequence), for every fenced statement.
    private static func held(_ claim: Claim, worker: String) -> [CatalogValue] {
        [.text(claim.record.kind.rawValue), .integer(claim.record.id), .text(worker), .integer(claim.sequence)]
    }

    /// Finishes a claimed row in `tx`, fenced: removes it if `worker` still holds it under this
    /// claim, or (`failure` given) puts it back with the reason, claimable again at `retryAt`.
    ///
    /// - Throws: `LostClaim` when the claim holds the row no more; the caller's transaction must
    ///   then roll back.
    public func finish(
        _ claim: Claim, worker: String, failure: String?, retryAt: Date, in tx: CatalogTransaction
    ) throws {
        let key = Self.held(claim, worker: worker)
        Self.freesBugs(claim.record, in: tx)
        let changed: Int
        if let failure {
            changed = try tx.db.run(sql.fail, [.integer(Int(Self.millis(retryAt))), .text(failure)] + key)
        } else {
            changed = try tx.db.run(sql.complete, key)
        }
        guard changed == 1 else { throw LostClaim(record: claim.record, workerID: worker) }
    }

    /// The fence, first in the transaction that records the build of `claim`'s record.
    ///
    /// - Throws: `LostClaim` when the claim holds the row no more (another worker took it, the
    ///   record changed, or `worker` claimed it again since); the transaction must then roll back.
    public func check(_ claim: Claim, worker: String, in tx: CatalogTransaction) throws {
        let held = try tx.db.queryFirst(sql.fence, Self.held(claim, worker: worker)) { $0.int(0) }
        guard held != nil else { throw LostClaim(record: claim.record, workerID: worker) }
    }

    /// Last in the transaction whose `check` passed: removes the row (built), or puts it back
    /// with `failure`, claimable at `retryAt`, with `attempts`.
    public func settle(
        _ record: RecordRef, failure: String?, attempts: Int, retryAt: Date, in tx: CatalogTransaction
    ) throws {
        let key: [CatalogValue] = [.text(record.kind.rawValue), .integer(record.id)]
        Self.freesBugs(record, in: tx)
        if let failure {
            try tx.db.run(
                sql.settleFailed, [.integer(Int(Self.millis(retryAt))), .text(failure), .integer(attempts)] + key)
        } else {
            try tx.db.run(sql.settleBuilt, key)
        }
    }

    /// A transaction that lets go of the app entry (built, or put back failed) makes every
    /// queued bug claimable again: claims found none while it was held (`BuildQueueSQL`), and
    /// the workers that went idle then are woken after the commit rather than at their next
    /// poll (5 s by default), as after a commit that queued work.
    private static func freesBugs(_ record: RecordRef, in tx: CatalogTransaction) {
        if record.kind == .app { tx.queuedWork() }
    }

    /// `finish` in a transaction of its own (for a claimed record the build had nothing to do
    /// for, or could not start).
    public func finish(_ claim: Claim, worker: String, failure: String?, retryAt: Date) throws {
        // Shared: the fenced UPDATE/DELETE row-locks the record's row.
        try store.write(mode: .shared) { tx in
            try finish(claim, worker: worker, failure: failure, retryAt: retryAt, in: tx)
        }
    }

    /// Hands back claimed rows that were never started, their attempts not counted.
    public func release(_ claims: [Claim], worker: String) throws {
        // Shared: each fenced UPDATE row-locks the record's row.
        try store.write(mode: .shared) { tx in
            if !claims.isEmpty { tx.queuedWork() }
            for claim in claims { try tx.db.run(sql.release, Self.held(claim, worker: worker)) }
        }
    }

    /// How many rows are still to be done by someone other than `worker` at `now`: held by
    /// other workers under leases that have not run out, or claimable (`BuildQueueSQL.unfinished`).
    /// A drain ends when a claim found nothing and this is 0.
    public func unfinished(worker: String, now: Date) throws -> Int {
        let now = CatalogValue.integer(Int(Self.millis(now)))
        return try store.read { tx in
            try tx.db.queryFirst(sql.unfinished, [now, .text(worker), now, .integer(maxAttempts)]) { $0.int(0) } ?? 0
        }
    }

    /// Every row, by record.
    public func entries() throws -> [Entry] {
        try store.read { tx in
            try tx.db.query(sql.entries) { row throws(CatalogError) in
                Entry(
                    record: try Self.record(row), workerID: row.optionalString(2),
                    leaseUntil: row.isNull(3) ? nil : Int64(row.int(3)), attempts: row.int(4),
                    lastError: row.optionalString(5), enqueuedAt: row.string(6), claimSequence: row.int(7))
            }
        }
    }
}
