// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

/// Runs an operation on another PostgreSQL session while a test holds a transaction open, and
/// tells whether the operation waited for a lock that transaction holds (seen in `pg_locks`,
/// no timing) or ran through: how the lock-mode tests check each invariant with two stores.
package final class LockWaitProbe<T: Sendable>: Sendable {
    /// What `start` saw.
    package enum Outcome: Equatable, Sendable {
        /// The operation waited for a lock the transaction held.
        case waited
        /// It finished without waiting.
        case ranThrough
    }

    private let done = Locked<Result<T, any Error>?>(nil)
    private let ended = DispatchSemaphore(value: 0)

    package init() {}

    /// Inside the open transaction `tx`, runs `operation` on a thread and returns once it waits
    /// for a lock `tx`'s session holds, or has finished. The caller then ends `tx`, and gets
    /// `operation`'s result from `joined`.
    package func start(in tx: CatalogTransaction, _ operation: @escaping @Sendable () throws -> T) throws -> Outcome {
        let pid = try tx.db.queryFirst("SELECT pg_backend_pid()") { $0.int(0) } ?? 0
        Thread.detachNewThread { [self] in
            let result = Result { try operation() }
            done.withLock { $0 = result }
            ended.signal()
        }
        while true {
            if done.withLock({ $0 != nil }) { return .ranThrough }
            let blocked =
                try tx.db.queryFirst(
                    "SELECT COUNT(*) FROM pg_locks WHERE NOT granted AND ? = ANY(pg_blocking_pids(pid))",
                    [.integer(pid)]
                ) { $0.int(0) } ?? 0
            if blocked > 0 { return .waited }
            Thread.sleep(forTimeInterval: 0.002)  // polling a condition, not timing anything
        }
    }

    /// The operation's result, once it has ended.
    package func joined() throws -> T {
        ended.wait()
        ended.signal()
        return try done.withLock { $0! }.get()
    }
}
