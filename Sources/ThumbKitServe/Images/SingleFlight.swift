// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// Identical concurrent requests share one render: the first caller for a key runs the work,
/// and callers that arrive before it finishes wait for the same result instead of running it
/// again. Nothing is kept once the work has finished (caching is the CDN's and the ETag's job).
///
/// The first caller runs the work in its own task, not in a new `Task {}`: an unstructured task
/// does not inherit the caller's task executor, so the work (and every resumption after its
/// render) ran on Swift's global pool, which on Linux shares Dispatch's default-priority
/// threads. Anything in the process blocking those threads (a test reading curl's pipes on a
/// global queue) then held the answers back: 14 image tests in parallel took 18 s, not 1 s.
package final class SingleFlight<Value: Sendable>: Sendable {
    /// Guards the callers waiting for each key whose work is running (the one running it is not
    /// listed: a key is present, maybe with no waiter, while its work runs).
    private let waiting = Locked<[String: [CheckedContinuation<Value?, Never>]]>([:])

    package init() {}

    /// Callers waiting for `key` now, the one running its work included (for tests).
    package func waitingCount(_ key: String) -> Int {
        waiting.withLock { $0[key].map { $0.count + 1 } ?? 0 }
    }

    /// `work`'s result for `key`, and whether it was shared (another caller ran the work).
    package func run(_ key: String, _ work: @escaping @Sendable () async -> Value) async -> (Value, shared: Bool) {
        while true {
            let leads = waiting.withLock { table -> Bool in
                guard table[key] == nil else { return false }
                table[key] = []
                return true
            }
            if leads {
                let value = await work()
                let callers = waiting.withLock { $0.removeValue(forKey: key) } ?? []
                for caller in callers { caller.resume(returning: value) }
                return (value, false)
            }
            let shared = await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                let joined = waiting.withLock { table -> Bool in
                    guard table[key] != nil else { return false }
                    table[key]!.append(continuation)
                    return true
                }
                // The work finished between the two looks: try again, maybe as the first caller.
                if !joined { continuation.resume(returning: nil) }
            }
            if let shared { return (shared, true) }
        }
    }
}
