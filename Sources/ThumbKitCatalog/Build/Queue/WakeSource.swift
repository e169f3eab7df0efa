// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// What an idle worker waits on before it looks at the queue again: a timer
/// (`PollingWakeSource`, SQLite), or PostgreSQL's `LISTEN` on the catalog's channel (a `NOTIFY`
/// sent just after the commit that queued a record) with the timer as its fallback
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

/// Another wake source whose every wait lasts its timeout ± `spread` (a fraction, 0.2 for
/// ±20 %), drawn afresh each time: idle workers started together (a fleet's rollout) do not
/// poll the database in lock step for ever after.
public struct JitteredWakeSource: WakeSource {
    /// The wake source waited on.
    public let base: any WakeSource
    /// How far a wait may stray from its timeout, as a fraction of it.
    public let spread: Double

    /// Waits on `base` for its timeout ± `spread` of it.
    public init(_ base: any WakeSource, spread: Double = 0.2) {
        self.base = base
        self.spread = min(max(spread, 0), 1)
    }

    public func wait(timeout: Duration) {
        base.wait(timeout: Self.jittered(timeout, spread: spread, unit: Double.random(in: 0..<1)))
    }

    public func interrupt() { base.interrupt() }

    /// `timeout` scaled by 1 − `spread` + 2 · `spread` · `unit` (`unit` in 0..<1).
    static func jittered(_ timeout: Duration, spread: Double, unit: Double) -> Duration {
        let factor = 1 - spread + 2 * spread * unit
        return .milliseconds(Int64((Double(timeout.milliseconds) * factor).rounded()))
    }
}
