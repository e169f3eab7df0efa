// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// How many rows a worker claims next: from `start`, growing while its batches finish quickly,
/// up to `limit` (`BuildWorker.Options.batch` and `batchLimit`; equal, the size never moves).
///
/// Why: a batch costs a fixed handful of round trips (the claim, the snapshot, the commit: 14
/// at a batch of 4 on PostgreSQL), whatever its size. For records that take a millisecond,
/// those round trips were most of a build's time: 2,000 tiny bugs took 1.8–1.9 s on PostgreSQL
/// at 4 a claim and 0.5 s at 64. For records that take seconds, a large claim would only hold
/// rows other workers could build. So a claim takes about what its worker builds in `target`
/// (the time `CommitBatch` lets a record wait for its commit): after each run of `records`
/// built in `elapsed`, the next claim is `runsPerClaim × target × records / elapsed` (a drain's
/// lanes share one claim, one run each), at most four times the last, and within
/// `start...limit`. Slower records shrink it again at once.
///
/// Shared by a drain's lanes; its one lock guards the size.
final class BatchSizer: Sendable {
    /// The run time a claim aims at.
    static let target: Duration = .milliseconds(100)

    let start: Int
    let limit: Int
    private let runsPerClaim: Int
    private let target: Duration
    /// The size of the next claim.
    private let current: Locked<Int>

    init(start: Int, limit: Int, runsPerClaim: Int = 1, target: Duration = BatchSizer.target) {
        self.start = max(1, start)
        self.limit = max(self.start, limit)
        self.runsPerClaim = max(1, runsPerClaim)
        self.target = target
        self.current = Locked(self.start)
    }

    /// The rows the next claim takes.
    var size: Int { current.withLock { $0 } }

    /// The records one run takes of a claim (a lane's share).
    var share: Int { max(1, size / runsPerClaim) }

    /// A run built `records` records in `elapsed` (its snapshot, build and commit).
    func record(records: Int, elapsed: Duration) {
        guard records > 0, start < limit else { return }
        current.withLock { size in
            let seconds = max(elapsed.seconds, 1e-6)
            let wanted = Double(runsPerClaim) * target.seconds * Double(records) / seconds
            let ceiling = min(limit, size * 4)
            size = max(start, min(ceiling, Int(wanted.rounded(.down))))
        }
    }
}
