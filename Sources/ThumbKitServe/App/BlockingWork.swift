// SPDX-License-Identifier: Apache-2.0
import Dispatch

/// Runs the web app's blocking work (catalog reads and writes, which may wait on SQLite's busy
/// timeout; password checks; picture checks) on a queue of its own, so that no cooperative
/// thread is ever blocked, and awaits the result.
package enum BlockingWork {
    private static let queue = DispatchQueue(label: "thumbkit-serve-app", attributes: .concurrent)

    package static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }
}
