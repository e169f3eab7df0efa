// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitCatalog

/// Another connection's write transaction on a catalog, held on a thread of its own until the
/// test lets it go: the busy lock that `build`'s planning pass and its drain must wait out.
/// A test releases it from the refusal's own callback, so the order is fixed without a sleep.
public final class WriteLockHolder: Sendable {
    private let release = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    /// Opens `path` and returns once its write lock is held.
    public init(path: String) throws {
        let holder = try CatalogStore(path: path)
        let holding = DispatchSemaphore(value: 0)
        let (release, done) = (release, done)
        Thread.detachNewThread {
            _ = try? holder.write { _ in
                holding.signal()
                release.wait()
            }
            done.signal()
        }
        holding.wait()
    }

    /// Ends the transaction and waits until it has ended (call once).
    public func letGo() {
        release.signal()
        done.wait()
    }
}
