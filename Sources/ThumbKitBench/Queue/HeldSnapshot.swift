// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

/// A `REPEATABLE READ` transaction held open on a connection of its own, on a thread of its
/// own (a store's transaction lives inside one call), until `end`.
final class HeldSnapshot {
    private let release = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var ended = false

    /// Opens the transaction and takes its snapshot (one `SELECT`); returns once it is taken.
    init(catalog: String) throws {
        let store = try CatalogStore(location: try CatalogLocation(parsing: catalog))
        let taken = DispatchSemaphore(value: 0)
        let failure = Locked<(any Error)?>(nil)
        let (release, finished) = (release, finished)
        Thread.detachNewThread {
            do {
                // A store's read transaction is REPEATABLE READ on PostgreSQL: its first
                // statement takes the snapshot it keeps to the end.
                try store.read { tx in
                    _ = try tx.db.queryFirst("SELECT count(*) FROM build_queue") { $0.int(0) }
                    taken.signal()
                    release.wait()
                }
            } catch {
                failure.withLock { $0 = error }
                taken.signal()
            }
            finished.signal()
        }
        taken.wait()
        if let error = failure.withLock({ $0 }) {
            ended = true
            throw error
        }
    }

    /// Ends the transaction (it only read: rolled back or committed alike) and waits for it.
    func end() throws {
        guard !ended else { return }
        ended = true
        release.signal()
        finished.wait()
    }
}
