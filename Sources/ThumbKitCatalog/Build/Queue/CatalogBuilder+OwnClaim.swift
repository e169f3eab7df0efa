// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// The build of a record its writer claimed itself (`BuildQueue.claimOwn`), committed under the
/// queue's fence exactly as a worker commits its claims (`BuildCommitGuard`, `BuildQueue.check`
/// and `settle`): a worker running beside the writer never builds the record again, a stale
/// commit (the claim lost meanwhile) records nothing, and no queue row is left behind.
extension CatalogBuilder {
    /// A writer's claim of the record it changed, with what the record's build reads first,
    /// both taken in the transaction of the change (`claimOwn`).
    package struct OwnClaim: Sendable {
        /// The claim (`BuildQueue.claimOwn`).
        package let claim: BuildQueue.Claim
        /// The record, its output rows and the settings the build plans from: read with the
        /// claim, so the fence that holds at the commit proves them current, and the build does
        /// not open a read transaction of its own.
        let snapshot: BuildSnapshot
        /// How long the claim lasts without renewal; renewed while its build runs.
        let lease: Duration

        /// The lease of every writer's own claim (`watch`, `catalog rate`, `rename`,
        /// `set-image`): long enough that renewal is rare, short enough that a writer killed
        /// mid-build leaves its record to a worker soon.
        package static let lease: Duration = .seconds(30)
    }

    /// Claims `record` for `worker` in `tx`, the transaction that changed it
    /// (`BuildQueue.claimOwn`), for `lease`, and reads what its build needs there.
    package func claimOwn(
        _ record: RecordRef, queue: BuildQueue, worker: String, lease: Duration = OwnClaim.lease,
        in tx: CatalogTransaction
    ) throws -> OwnClaim {
        try claimOwn(record, queue: queue, worker: worker, lease: lease, in: tx) { try BuildSnapshot.of([record], $0) }
    }

    /// `claimOwn` for a record the writer has in hand as it wrote it in `tx`, which the
    /// snapshot then does not read again (`BuildSnapshot.of(written:_:)`).
    package func claimOwn(
        _ written: WrittenRecord, queue: BuildQueue, worker: String, lease: Duration = OwnClaim.lease,
        in tx: CatalogTransaction
    ) throws -> OwnClaim {
        try claimOwn(written.ref, queue: queue, worker: worker, lease: lease, in: tx) {
            try BuildSnapshot.of(written: written, $0)
        }
    }

    /// The claim, then the snapshot `read` takes after it in the same transaction.
    private func claimOwn(
        _ record: RecordRef, queue: BuildQueue, worker: String, lease: Duration, in tx: CatalogTransaction,
        snapshot read: (CatalogTransaction) throws -> BuildSnapshot
    ) throws -> OwnClaim {
        let claim = try queue.claimOwn(record, worker: worker, lease: lease, now: Date(), in: tx)
        return OwnClaim(claim: claim, snapshot: try read(tx), lease: lease)
    }

    /// How a build under a writer's own claim ended.
    package struct ClaimedBuild: Sendable {
        /// The build's report; a lost claim is not among its failures.
        package var report: BuildReport
        /// The claim was lost before the commit (the record changed again, or the lease ran out
        /// and a worker took it): nothing of this build was recorded, and the row's new holder
        /// builds the record.
        package var lost: Bool
    }

    /// Builds `own`'s record (rendering its source from `prepared` when it fits) under the
    /// claim `worker` holds, from the snapshot read with it, renewing its lease while it runs,
    /// and commits it fenced; `onNote` gets the build's notes (an output folder claimed).
    /// `done` runs last in the transaction that ends the claim, only when the build met no
    /// failure: the record's row commit (which removes the queue row), or when there was
    /// nothing to commit, the fenced finish of the row, or when the claim was lost, a
    /// transaction of its own. `done` also gets the record's output rows once the commit's are
    /// written, or nil when nothing was committed (then they are as they were). A failed build
    /// puts the row back with its reasons, claimable a lease later.
    package func build(
        claimed own: OwnClaim, queue: BuildQueue, worker: String, prepared: PreparedImage?,
        onNote: ((String) -> Void)? = nil,
        done: @escaping @Sendable (_ transaction: CatalogTransaction, _ outputRows: Int?) throws -> Void
    ) -> ClaimedBuild {
        let claim = own.claim
        let record = claim.record
        let lease = own.lease
        let state = Locked((lost: false, settled: false))
        // A failed build's row waits a lease before a worker may retry it: the writer undoes
        // its change first (which queues or removes the row anew).
        let retryAt = Date().addingTimeInterval(Double(lease.milliseconds) / 1000)
        let renewer = LeaseRenewer(queue: queue, worker: worker, lease: lease, clock: SystemBuildClock())
        var report = build(
            only: [record], prepared: prepared, onNote: onNote,
            commitGuard: BuildCommitGuard(
                check: { tx, unit in
                    guard unit == record else { return }  // a side unit (the strips of a bug)
                    do {
                        try queue.check(claim, worker: worker, in: tx)
                    } catch let error as BuildQueue.LostClaim {
                        state.withLock { $0.lost = true }
                        throw error
                    }
                },
                finish: { tx, unit, failures, rows in
                    guard unit == record else { return }
                    let reason = failures.isEmpty ? nil : failures.joined(separator: "; ")
                    try queue.settle(record, failure: reason, attempts: claim.attempt, retryAt: retryAt, in: tx)
                    if failures.isEmpty { try done(tx, rows) }
                    state.withLock { $0.settled = true }
                }, batch: nil, fencesRecords: true),
            snapshot: own.snapshot)
        renewer.stop()
        let (lost, settled) = state.withLock { ($0.lost, $0.settled) }
        if lost {
            let line = BuildQueue.LostClaim(record: record, workerID: worker).description
            report.failures.removeAll { $0 == line }
            report.failed = report.failures.count
        }
        guard !settled else { return ClaimedBuild(report: report, lost: lost) }
        // Nothing committed under the claim: the row is finished here (unless it was lost).
        let reason = report.failures.isEmpty ? nil : report.failures.joined(separator: "; ")
        do {
            try store.write { tx in
                if !lost {
                    do {
                        try queue.finish(claim, worker: worker, failure: reason, retryAt: retryAt, in: tx)
                    } catch is BuildQueue.LostClaim {
                        // Taken since: its new holder builds the record.
                    }
                }
                if reason == nil { try done(tx, nil) }
            }
        } catch {
            report.fail(UnitBuild.line(error))
        }
        return ClaimedBuild(report: report, lost: lost)
    }
}
