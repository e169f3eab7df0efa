// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// The rows a worker with lanes (`BuildWorker+Lanes`) has claimed and no lane has taken yet:
/// one claim of `batch` rows feeds every lane, rather than each lane claiming `batch / lanes`.
///
/// A lane takes up to `share` records at a time (`batch / lanes`), builds them one after another
/// and commits them together (`CommitBatch`), so a build's lanes commit several records per
/// transaction, not one each; at the end of the queue a lane holds at most `share - 1` records
/// that another lane might have built. The `app` entry is never built beside a bug it claimed
/// with (a bug's rating rows point at the strips the app makes): a lane that takes the app
/// takes every bug waiting in the pool with it, and builds them together as one batch did.
/// Rows in the pool keep their leases: every lane's `LeaseRenewer` renews all of the worker's
/// rows, and a lane only claims when the pool is empty.
final class ClaimPool: Sendable {
    /// The claimed rows no lane has taken, in claim order. Held across a claim too, so only
    /// one lane claims at a time and no lane claims while rows wait here.
    private let waiting = Locked<[BuildQueue.Claim]>([])

    /// The next rows for a lane, at most `share` but for the `app` entry's: taken from the
    /// pool, or, when it is empty, from what `claim` returns (the rest wait for the other
    /// lanes). Empty when nothing was claimable.
    func take(share: Int, _ claim: () throws -> [BuildQueue.Claim]) throws -> [BuildQueue.Claim] {
        try waiting.withLock { (rows: inout [BuildQueue.Claim]) throws -> [BuildQueue.Claim] in
            if rows.isEmpty { rows = try claim() }
            guard let first = rows.first else { return [] }
            if first.record == .app {
                let together = rows.filter { $0.record == .app || $0.record.kind == .bug }
                rows.removeAll { $0.record == .app || $0.record.kind == .bug }
                return together
            }
            let taken = Array(rows.prefix(max(1, share)).prefix { $0.record != .app })
            rows.removeFirst(taken.count)
            return taken
        }
    }

    /// Empties the pool: the rows no lane will take (a drain that stopped), to hand back.
    func removeAll() -> [BuildQueue.Claim] {
        waiting.withLock { rows in
            defer { rows = [] }
            return rows
        }
    }
}
