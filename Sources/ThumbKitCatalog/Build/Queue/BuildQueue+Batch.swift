// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The statements of a batch commit (`CommitBatch`): one fence for all its records, one
/// settle for all that were built, and the fenced finish of records with nothing to commit,
/// all inside the caller's one transaction. PostgreSQL gets one statement each (arrays);
/// SQLite, whose write transaction already excludes every other writer, loops.
extension BuildQueue {
    /// `claims` sorted by key (kind, id): the order every batch locks its rows in.
    static func keyOrder(_ claims: [Claim]) -> [Claim] {
        claims.sorted { ($0.record.kind.rawValue, $0.record.id) < ($1.record.kind.rawValue, $1.record.id) }
    }

    /// The kinds and the ids of `records`, as the two array parameters every array statement
    /// starts with (`BuildQueueSQL.ArrayStatements`, which only PostgreSQL has).
    private static func keyArrays(_ records: [RecordRef]) -> [CatalogValue] {
        [
            CatalogDialect.postgres.wordList(records.map(\.kind.rawValue)),
            CatalogDialect.postgres.integerList(records.map(\.id)),
        ]
    }

    /// The fence of every claim in `claims` at once, first in the batch's transaction: the
    /// records `worker` still holds under those very claims, their rows locked until the commit
    /// (PostgreSQL: in key order). A record missing from the answer lost its claim.
    func check(_ claims: [Claim], worker: String, in tx: CatalogTransaction) throws -> Set<RecordRef> {
        let sorted = Self.keyOrder(claims)
        guard !sorted.isEmpty else { return [] }
        if let arrays = sql.arrays {
            let sequences = CatalogDialect.postgres.integerList(sorted.map(\.sequence))
            let values = Self.keyArrays(sorted.map(\.record)) + [sequences, .text(worker)]
            let rows = try tx.db.query(arrays.fence, values) { row throws(CatalogError) in try Self.record(row) }
            return Set(rows)
        } else {
            var held: Set<RecordRef> = []
            for claim in sorted {
                let record = claim.record
                let values: [CatalogValue] = [
                    .text(record.kind.rawValue), .integer(record.id), .text(worker), .integer(claim.sequence),
                ]
                if try tx.db.queryFirst(sql.fence, values, { $0.int(0) }) != nil { held.insert(claim.record) }
            }
            return held
        }
    }

    /// Last in the batch's transaction, for records whose fence held: the built ones (no
    /// failures) leave the queue, one statement for all on PostgreSQL; each failed one goes
    /// back with its reasons, claimable at `retryAt(attempt)`.
    func settle(
        _ records: [(claim: Claim, failures: [String])], retryAt: (Int) -> Date, in tx: CatalogTransaction
    ) throws {
        let built = records.filter { $0.failures.isEmpty }.map(\.claim.record)
        for (claim, failures) in records where !failures.isEmpty {
            try settle(
                claim.record, failure: failures.joined(separator: "; "), attempts: claim.attempt,
                retryAt: retryAt(claim.attempt), in: tx)
        }
        guard !built.isEmpty else { return }
        if let arrays = sql.arrays {
            try tx.db.run(arrays.settle, Self.keyArrays(built))
        } else {
            for record in built { try settle(record, failure: nil, attempts: 0, retryAt: Date(), in: tx) }
        }
    }

    /// `finish` of several claims (records the build had nothing to commit for) in one
    /// transaction, in key order: returns the records whose claim was lost (nothing changed
    /// for them; the others are removed, or put back with their reason).
    func finish(_ claims: [(claim: Claim, failure: String?)], worker: String, retryAt: (Int) -> Date) throws
        -> Set<RecordRef>
    {
        guard !claims.isEmpty else { return [] }
        let failures = Dictionary(claims.map { ($0.claim.record, $0.failure) }, uniquingKeysWith: { a, _ in a })
        // Shared: each fenced UPDATE/DELETE row-locks its record's row, in key order.
        return try store.write(mode: .shared) { tx in
            var lost: Set<RecordRef> = []
            for claim in Self.keyOrder(claims.map(\.claim)) {
                do {
                    try finish(
                        claim, worker: worker, failure: failures[claim.record] ?? nil,
                        retryAt: retryAt(claim.attempt), in: tx)
                } catch is LostClaim {
                    lost.insert(claim.record)
                }
            }
            return lost
        }
    }

    /// The planning pass's verdicts, inside its exclusive transaction: `stale` records are
    /// queued (or their rows freed and reset, unless a worker holds them under a live lease),
    /// and the rows of `current` ones removed, nobody holding them. PostgreSQL: one statement
    /// each (`BuildQueueSQL.ArrayStatements`); SQLite: one per record.
    func plan(stale: [RecordRef], current: [RecordRef], now: Date, in tx: CatalogTransaction) throws {
        let nowMs = CatalogValue.integer(Int(Self.millis(now)))
        if !stale.isEmpty { tx.queuedWork() }
        if let arrays = sql.arrays {
            if !stale.isEmpty { try tx.db.run(arrays.plan, [.text(tx.now)] + Self.keyArrays(stale) + [nowMs]) }
            if !current.isEmpty { try tx.db.run(arrays.dropCurrent, Self.keyArrays(current) + [nowMs]) }
        } else {
            for record in stale {
                try tx.db.run(sql.plan, [.text(record.kind.rawValue), .integer(record.id), .text(tx.now), nowMs])
            }
            for record in current {
                try tx.db.run(sql.dropCurrent, [.text(record.kind.rawValue), .integer(record.id), nowMs])
            }
        }
    }
}
