// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// Failed logins per client address: after `maxFailures` failures within `window`, further
/// attempts from that address are refused (429 with `Retry-After`) until the oldest failure
/// leaves the window. A success clears the address. The table is capped: beyond `capacity`
/// addresses the one whose latest failure is oldest is dropped.
package final class LoginRateLimiter: Sendable {
    private let clock: any WebAppClock
    private let maxFailures: Int
    private let window: TimeInterval
    private let capacity: Int
    /// Guards the failure times by client address, oldest first.
    private let failures = Locked<[String: [Date]]>([:])

    package init(clock: any WebAppClock, maxFailures: Int = 5, window: TimeInterval = 60, capacity: Int = 10_000) {
        self.clock = clock
        self.maxFailures = max(1, maxFailures)
        self.window = window
        self.capacity = max(1, capacity)
    }

    /// Seconds until `client` may try again (at least 1), or nil when it may try now.
    package func retryAfter(client: String) -> Int? {
        let now = clock.now()
        return failures.withLock { table in
            let recent = (table[client] ?? []).filter { now.timeIntervalSince($0) < window }
            table[client] = recent.isEmpty ? nil : recent
            guard recent.count >= maxFailures, let oldest = recent.first else { return nil }
            return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
        }
    }

    /// Records a failed attempt from `client`.
    package func fail(client: String) {
        let now = clock.now()
        failures.withLock { table in
            if table[client] == nil, table.count >= capacity,
                let stalest = table.min(by: { ($0.value.last ?? now) < ($1.value.last ?? now) })
            {
                table[stalest.key] = nil
            }
            var list = (table[client] ?? []).filter { now.timeIntervalSince($0) < window }
            list.append(now)
            table[client] = Array(list.suffix(maxFailures))
        }
    }

    /// Clears `client` after a successful login.
    package func succeed(client: String) {
        failures.withLock { _ = $0.removeValue(forKey: client) }
    }
}
