// SPDX-License-Identifier: Apache-2.0
import Foundation

// Blocking work in async tests. Swift Testing runs test bodies on Swift's cooperative pool, which
// has one thread per core (two here): a test that blocks one of them (a curl run, a socket read,
// a semaphore, a poll that sleeps) takes half the pool from every other test, and two such tests
// stall the whole run. Such work goes through `offPool`, which runs it on a thread of its own and
// suspends the test until it is done.

/// Runs `body` on a new thread (never a cooperative one) and returns what it returns, or throws
/// what it throws; the calling task is suspended meanwhile, so its thread serves other tasks.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.name = "tk-test-offpool"
        thread.start()
    }
}

/// Work started at once on a thread of its own, its result awaited later.
///
/// Why not `Task { try await offPool { … } }`: a task needs a free cooperative thread to *start*.
/// In the full parallel run, synchronous tests (every `TestBinary.run` of a long command) hold
/// both of the pool's threads (its width is the core count, 2 here) for tens of seconds; a task
/// created meanwhile starts only after they let go, while a deadline measured off the pool runs
/// on, and a test that waits for the task's effect fails though nothing is wrong. Started here,
/// the work begins at once whatever the pool is doing.
public final class StartedOffPool<T: Sendable>: Sendable {
    /// The outcome, once the thread has finished.
    private let outcome = Observed<Result<T, any Error>?>(nil)

    /// Starts `body` on a new thread.
    public init(_ body: @escaping @Sendable () throws -> T) {
        let outcome = self.outcome
        let thread = Thread {
            let result = Result { try body() }
            outcome.update { $0 = result }
        }
        thread.name = "tk-test-offpool"
        thread.start()
    }

    /// The work's result, waited for off the pool (at most `timeout` seconds).
    public func value(timeout: Double = 120) async throws -> T {
        guard await outcome.waitOffPool(timeout: timeout, until: { $0 != nil }), let result = outcome.value else {
            throw StartedOffPoolTimeout(seconds: timeout)
        }
        return try result.get()
    }
}

/// `StartedOffPool.value(timeout:)` found the work still running at its deadline.
public struct StartedOffPoolTimeout: Error, CustomStringConvertible {
    public let seconds: Double
    public var description: String { "the work started off the pool had not finished after \(seconds) s" }
}

extension Observed {
    /// `wait(timeout:until:)` on a thread of its own: whether `holds(value)` held within `timeout`
    /// seconds, without blocking a cooperative thread.
    public func waitOffPool(timeout: Double, until holds: @escaping @Sendable (Value) -> Bool) async -> Bool {
        (try? await offPool { self.wait(timeout: timeout, until: holds) }) ?? false
    }
}

/// `pollUntil` on a thread of its own: whether `condition` held within `timeout` seconds, looked
/// at every `interval` seconds, without blocking a cooperative thread.
public func pollUntilOffPool(
    timeout: Double, every interval: Double = 0.02, _ condition: @escaping @Sendable () -> Bool
) async -> Bool {
    (try? await offPool { pollUntil(timeout: timeout, every: interval, condition) }) ?? false
}

extension TestBinary {
    /// `run(executable:_:environment:in:)` off the cooperative pool: a thread of its own waits
    /// for the child (and `run` reads each pipe on one more).
    public static func runOffPool(
        executable: URL = thumbkit, _ arguments: [String], environment: [String: String]? = nil,
        in directory: URL? = nil
    ) async throws -> Run {
        try await offPool { try run(executable: executable, arguments, environment: environment, in: directory) }
    }
}
