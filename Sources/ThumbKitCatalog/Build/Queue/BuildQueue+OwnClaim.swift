// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A writer's claim of the record it has just changed (`watch`'s ingest): taken in the very
/// transaction of the change, so from its commit on the record's row is the writer's, as a
/// worker's claim makes it, and no worker builds the record again. The writer then builds and
/// commits under the same fence a worker does (`CatalogBuilder.build(claimed:…)`), which
/// removes the row: nothing is left queued.
extension BuildQueue {
    /// Claims `record` for `worker` in `tx`, the transaction that changed it, leased until
    /// `now + lease`: its row (queued by the change, or made here when the change queued
    /// nothing, an interrupted ingest redone) gets `worker`, one attempt and the next claim
    /// sequence. A worker that held the row under an older claim loses it (its commit is
    /// refused by the fence), as it would to the change itself. No idle worker is woken for
    /// the record: only for a transaction that queued nothing else.
    public func claimOwn(
        _ record: RecordRef, worker: String, lease: Duration, now: Date, in tx: CatalogTransaction
    ) throws -> Claim {
        let until = Int(Self.millis(now) + lease.milliseconds)
        let values: [CatalogValue] = [
            .text(record.kind.rawValue), .integer(record.id), .text(worker), .integer(until), .text(tx.now),
        ]
        let sequence: Int?
        switch sql.ownClaim {
        case .returning(let statement):
            sequence = try tx.db.queryFirst(statement, values) { $0.int(0) }
        case .sequenceThenUpsert(let next, let upsert):
            guard let next = try tx.db.queryFirst(next, { $0.int(0) }) else {
                throw CatalogError.corrupt(path: "build_claim_sequence", reason: "the claim counter's row is missing")
            }
            sequence = try tx.db.queryFirst(upsert, values + [.integer(next)]) { $0.int(0) }
        }
        guard let sequence else {
            throw CatalogError.corrupt(path: "build_claim_sequence", reason: "the claim counter's row is missing")
        }
        tx.claimedQueuedWork()
        return Claim(record: record, attempt: 1, sequence: sequence)
    }

    /// Before a writer changes `record` in `tx` under the shared lock: waits for a worker's
    /// fenced commit of it in flight, and keeps its queue row locked until `tx` ends (see
    /// `BuildQueueSQL.lockRow`; nothing on SQLite).
    package func lockRow(of record: RecordRef, in tx: CatalogTransaction) throws(CatalogError) {
        guard let statement = sql.lockRow else { return }
        _ = try tx.db.query(statement, [.text(record.kind.rawValue), .integer(record.id)]) { $0.int(0) }
    }
}
