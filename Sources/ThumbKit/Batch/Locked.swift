// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A value guarded by a lock, with `Synchronization.Mutex`'s `withLock` shape, over `NSLock`.
///
/// Why not `Mutex`: on Linux its lock is atomics and futex calls that ThreadSanitizer does not
/// see, so every contended `withLock` is reported as a data race and a real race could hide
/// among them. Measured with Swift 6.3: four threads updating a dictionary under a `Mutex` give
/// TSan reports; the same code under an `NSLock` (a pthread mutex, which TSan understands) is
/// clean. Uncontended, the two cost about the same.
///
/// `@unchecked Sendable`: `value` is only read or written inside `withLock`, between
/// `lock.lock()` and `lock.unlock()`, and never escapes it by reference.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A lock guarding `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock; not reentrant.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
