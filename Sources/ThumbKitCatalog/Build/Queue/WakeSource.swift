// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// What an idle worker waits on before it looks at the queue again: a timer
/// (`PollingWakeSource`, SQLite), or PostgreSQL's `LISTEN` on the catalog's channel (a `NOTIFY`
/// from the transaction that queued a record) with the timer as its fallback
/// (`PostgresWakeSource`).
public protocol WakeSource: Sendable {
    /// Blocks until there may be new work, `timeout` passes, or `interrupt()` is called;
    /// returns early in the last case.
    func wait(timeout: Duration)
    /// Ends the current and every later `wait` at once (a worker stopping).
    func interrupt()
}

/// Wakes after the poll interval, or at once when interrupted.
public final class PollingWakeSource: WakeSource {
    private let interrupted = Locked(false)
    private let signal = DispatchSemaphore(value: 0)

    public init() {}

    public func wait(timeout: Duration) {
        if interrupted.withLock({ $0 }) { return }
        let seconds = Double(timeout.milliseconds) / 1000
        _ = signal.wait(timeout: .now() + seconds)
    }

    public func interrupt() {
        interrupted.withLock { $0 = true }
        signal.signal()
    }
}
