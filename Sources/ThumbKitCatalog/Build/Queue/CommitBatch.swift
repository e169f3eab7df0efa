// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// A worker's built records waiting to be committed together: the units of a batch hand their
/// made files here (`UnitBuild`) instead of each opening a transaction, and `flush` records
/// them all in ONE shared-mode transaction, when 64 are waiting, when the first has waited
/// 100 ms, and at the end of the batch (the worker's last `flush`).
///
/// The transaction: one fence for all (`BuildQueue.check(_:worker:in:)`, which locks the rows
/// still held in key order, so two batches over overlapping records cannot deadlock), then
/// each held record's rows in key order, then one settle for all. A record whose fence failed
/// is left out and behaves as a lost claim always did: nothing of it is recorded, the files it
/// wrote and no row describes are removed (exclusive, after the commit), and its event is
/// `lost`. Nothing is reported before the commit: a worker killed before it leaves its rows
/// claimed until their leases run out, with files that are either recorded (by a later owner)
/// or never named by any row, which that owner rewrites or the next full build sweeps.
///
/// When the batch's transaction fails for any other reason than a dropped connection (one
/// record's rows refused, say), every record is committed again alone, as before batches, so
/// one bad record costs only itself.
final class CommitBatch: Sendable {
    /// At most this many records wait for a commit.
    static let maxRecords = 64
    /// No record waits longer than this for its commit (unless its batch is still building
    /// the one record ahead of it).
    static let maxWait: Duration = .milliseconds(100)

    private let queue: BuildQueue
    private let worker: String
    private let held: [RecordRef: BuildQueue.Claim]
    private let retryAt: @Sendable (Int) -> Date
    private let onSettled: @Sendable (RecordRef, [String]) -> Void
    private let onLost: @Sendable (RecordRef) -> Void

    /// The records waiting and when the first of them came; the report of what was committed.
    private let state = Locked<(pending: [PendingCommit], since: ContinuousClock.Instant?, report: BuildReport)>(
        ([], nil, BuildReport()))
    /// Held through each flush, so two threads' flushes commit one after the other.
    private let flushing = Locked<Void>(())

    /// A batch of `claims` (rows `worker` holds): `onSettled` gets each record whose rows were
    /// committed, with its failures; `onLost` each whose fence failed.
    init(
        queue: BuildQueue, worker: String, claims: [BuildQueue.Claim], retryAt: @escaping @Sendable (Int) -> Date,
        onSettled: @escaping @Sendable (RecordRef, [String]) -> Void,
        onLost: @escaping @Sendable (RecordRef) -> Void
    ) {
        self.queue = queue
        self.worker = worker
        self.held = Dictionary(claims.map { ($0.record, $0) }, uniquingKeysWith: { a, _ in a })
        self.retryAt = retryAt
        self.onSettled = onSettled
        self.onLost = onLost
    }

    /// Whether `record` is one of the batch's claims (a side unit, the app's strips, is not).
    func holds(_ record: RecordRef) -> Bool { held[record] != nil }

    /// Adds a built record; commits what waits when it is 64 records or 100 ms old.
    func add(_ pending: PendingCommit) {
        let due = state.withLock { state -> Bool in
            state.pending.append(pending)
            let since = state.since ?? ContinuousClock.now
            state.since = since
            return state.pending.count >= Self.maxRecords || ContinuousClock.now - since >= Self.maxWait
        }
        if due { flush() }
    }

    /// Commits every record waiting; returns the report of everything this batch committed.
    @discardableResult
    func flush() -> BuildReport {
        flushing.withLock { _ in
            let pending = state.withLock { state -> [PendingCommit] in
                defer { (state.pending, state.since) = ([], nil) }
                return state.pending
            }
            if !pending.isEmpty {
                let report = commit(pending)
                state.withLock { $0.report.add(report) }
            }
        }
        return state.withLock { $0.report }
    }

    /// One transaction for `pending` (see the type's notes).
    private func commit(_ pending: [PendingCommit]) -> BuildReport {
        let store = queue.store
        let byRecord = Dictionary(pending.map { ($0.record, $0) }, uniquingKeysWith: { a, _ in a })
        let claims = BuildQueue.keyOrder(pending.compactMap { held[$0.record] })
        let lossesBefore = store.connectionLosses
        var report = BuildReport()
        let committed: [(PendingCommit, BuildReport, [String], Bool)]
        let fenced: Set<RecordRef>
        do {
            (committed, fenced) = try store.write(mode: .shared) { tx in
                let fenced = try queue.check(claims, worker: worker, in: tx)
                var committed: [(PendingCommit, BuildReport, [String], Bool)] = []
                var settle: [(claim: BuildQueue.Claim, failures: [String])] = []
                // Every record staged, the batch's output rows written in one statement, then
                // each record finished.
                var staged: [(PendingCommit, BuildQueue.Claim, PendingCommit.Staged?)] = []
                for claim in claims where fenced.contains(claim.record) {
                    guard let item = byRecord[claim.record] else { continue }
                    staged.append((item, claim, try item.stage(in: tx, fenced: true)))
                }
                try tx.upsertOutputs(staged.flatMap { $0.2?.rows ?? [] })
                for (item, claim, stage) in staged {
                    guard let stage else {
                        committed.append((item, BuildReport(), [], false))
                        continue
                    }
                    let (rows, orphans, _) = try item.finish(stage, in: tx)
                    committed.append((item, rows, orphans, true))
                    settle.append((claim, item.failures + rows.failures))
                }
                try queue.settle(settle, retryAt: retryAt, in: tx)
                return (committed, fenced)
            }
        } catch {
            if store.willReconnect || store.connectionLosses != lossesBefore {
                // Cut off by the drop: nothing was recorded; the worker puts the rows back.
                for item in pending {
                    item.removeUnrecorded()
                    report.fail(UnitBuild.line(error))
                }
                return report
            }
            // One record (or the batch) refused: each commits alone, fenced as before batches.
            for item in pending {
                do {
                    report.add(try item.commitAlone())
                } catch {
                    report.fail(UnitBuild.line(error))
                }
            }
            return report
        }
        // Reported only now, after the commit.
        for (item, rows, orphans, recorded) in committed {
            item.removeOrphans(orphans)
            report.add(rows)
            if recorded { onSettled(item.record, item.failures + rows.failures) }
        }
        for item in pending where !fenced.contains(item.record) {
            item.removeUnrecorded()
            onLost(item.record)
        }
        return report
    }
}
