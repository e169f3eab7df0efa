// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// Identical concurrent requests share one render: the first caller for a key runs the work,
/// and callers that arrive before it finishes wait for the same result instead of running it
/// again. Nothing is kept once the work has finished (caching is the CDN's and the ETag's job).
package final class SingleFlight<Value: Sendable>: Sendable {
    /// Guards the callers waiting for each key whose work is running.
    private let waiting = Locked<[String: [CheckedContinuation<Value, Never>]]>([:])

    package init() {}

    /// Callers waiting for `key` now, the one running its work included (for tests).
    package func waitingCount(_ key: String) -> Int {
        waiting.withLock { $0[key]?.count ?? 0 }
    }

    /// `work`'s result for `key`, and whether it was shared (another caller ran the work).
    package func run(_ key: String, _ work: @escaping @Sendable () async -> Value) async -> (Value, shared: Bool) {
        var shared = true
        let value = await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
            let leads = waiting.withLock { table -> Bool in
                if table[key] != nil {
                    table[key]!.append(continuation)
                    return false
                }
                table[key] = [continuation]
                return true
            }
            guard leads else { return }
            shared = false
            Task {
                let value = await work()
                let callers = waiting.withLock { $0.removeValue(forKey: key) } ?? []
                for caller in callers { caller.resume(returning: value) }
            }
        }
        return (value, shared)
    }
}
