// SPDX-License-Identifier: Apache-2.0
import Dispatch
import ThumbKit

/// Runs the web app's blocking work (catalog reads and writes, which may wait on SQLite's busy
/// timeout; password checks; picture checks) on a queue of its own, so that no cooperative
/// thread is ever blocked, and awaits the result.
package enum BlockingWork {
    private static let queue = DispatchQueue(label: "thumbkit-serve-app", attributes: .concurrent)

    package static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        // The result crosses threads through a lock, not only through the continuation.
        // ThreadSanitizer sees no order between the queue's thread, which made the result,
        // and the HTTP thread that later sends its bytes, when the order comes only from the
        // Swift runtime's own (uninstrumented) synchronisation. Under TSan in CI this was
        // reported as a race on a served picture's bytes, and the server was stopped.
        let result = Locked<T?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                let value = body()
                result.withLock { $0 = value }
                continuation.resume()
            }
        }
        // Set before the continuation was resumed.
        return result.withLock { $0 }!
    }
}
