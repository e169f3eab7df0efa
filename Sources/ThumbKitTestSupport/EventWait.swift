// SPDX-License-Identifier: Apache-2.0
import Foundation

// Waiting in tests for the thing a test asserts on, never for a length of time. A test that
// sleeps and then asserts can pass without testing (the event came late, or not at all, and
// the check ran on the state before it) and is slow when the event comes early. Every wait here
// has a deadline, and says whether its condition held, so the caller fails with a message
// instead of hanging.

/// A value a test watches while another thread changes it. Each `update` wakes every waiter,
/// so `wait(timeout:until:)` returns as soon as its condition holds, not at a poll's next tick.
///
/// @unchecked Sendable: `stored` and `version` are only touched holding `condition`.
public final class Observed<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var stored: Value
    /// Bumped by each `update`: a waiter that saw version n sleeps until it is no longer n.
    private var version = 0

    public init(_ value: Value) { stored = value }

    /// Runs `body` on the value, holding the lock (copy what it returns out of it: a shared
    /// buffer read after the lock is released races with the next `update`).
    public func read<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body(stored)
    }

    /// A copy of the value.
    public var value: Value { read { $0 } }

    /// Changes the value and wakes every waiter.
    @discardableResult
    public func update<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            version += 1
            condition.broadcast()
            condition.unlock()
        }
        return try body(&stored)
    }

    /// Blocks until `holds()` or `timeout` seconds pass; whether it held. `holds` runs without
    /// the lock, after each `update` (and once first), so it may read this value or anything
    /// else; with `recheck`, also at least every `recheck` seconds, for conditions that look at
    /// what no `update` reports (a child process's exit, a database's rows).
    public func wait(timeout: Double, recheck: Double? = nil, until holds: () throws -> Bool) rethrows -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let seen = read { _ in version }
            if try holds() { return true }
            let now = Date()
            if now >= deadline { return false }
            let wake = recheck.map { min(deadline, now.addingTimeInterval($0)) } ?? deadline
            condition.lock()
            while version == seen, Date() < wake {
                _ = condition.wait(until: wake)
            }
            condition.unlock()
        }
    }

    /// Blocks until `holds(value)` or `timeout` seconds pass; whether it held.
    public func wait(timeout: Double, until holds: (Value) -> Bool) -> Bool {
        wait(timeout: timeout) { read(holds) }
    }
}

/// Polls `condition` every `interval` seconds until it holds or `timeout` seconds pass; whether
/// it held. Only for a condition nothing can signal (files another process writes, a server's
/// lock table): anything this process changes should be an `Observed` value instead.
public func pollUntil(timeout: Double, every interval: Double = 0.02, _ condition: () throws -> Bool) rethrows
    -> Bool
{
    try Observed(()).wait(timeout: timeout, recheck: interval, until: condition)
}

/// A meeting point for `parties` threads: each `arrive` blocks until all have arrived, so a
/// test can show they ran at the same time (run one after the other, the first gives up).
public final class Rendezvous: Sendable {
    private let arrived = Observed(0)
    public let parties: Int

    public init(parties: Int) { self.parties = parties }

    /// Arrives and waits up to `timeout` seconds for the others; whether they all came.
    public func arrive(timeout: Double) -> Bool {
        arrived.update { $0 += 1 }
        return arrived.wait(timeout: timeout) { [parties] in $0 >= parties }
    }
}
