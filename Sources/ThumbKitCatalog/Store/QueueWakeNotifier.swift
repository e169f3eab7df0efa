// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Wakes a PostgreSQL catalog's idle workers after a commit that queued claimable work: one
/// `SELECT pg_notify(build_queue_channel(), '')` on the store's own connection, in a tiny
/// transaction of its own, so the transaction that queued the work never sends `NOTIFY` (which
/// takes a cluster-wide lock at commit). Debounced per process and catalog: at most one per
/// `window`; a request inside the window is sent once when the window ends. A failed send is
/// dropped: the workers' poll is the fallback.
package final class QueueWakeNotifier: Sendable {
    /// What to do with a request.
    package enum Decision: Equatable, Sendable {
        /// Send now.
        case sendNow
        /// Send after this long (when the window ends).
        case sendLater(Duration)
        /// A send is already scheduled; it covers this request.
        case covered
    }

    /// The one notifier of this process.
    package static let shared = QueueWakeNotifier(window: .milliseconds(50))

    /// The shortest time between two wake-ups of one catalog.
    package let window: Duration
    /// Guards `catalogs`.
    private let lock = NSLock()
    /// Per catalog (its write-lock key): when the last wake-up went, and whether one is scheduled.
    nonisolated(unsafe) private var catalogs: [Int64: (last: ContinuousClock.Instant, scheduled: Bool)] = [:]

    package init(window: Duration) { self.window = window }

    /// Records a request for `catalog` at `now` and says what to do.
    package func request(catalog: Int64, now: ContinuousClock.Instant = .now) -> Decision {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = catalogs[catalog] else {
            catalogs[catalog] = (now, false)
            return .sendNow
        }
        if entry.scheduled { return .covered }
        let next = entry.last + window
        if now >= next {
            catalogs[catalog] = (now, false)
            return .sendNow
        }
        catalogs[catalog] = (entry.last, true)
        return .sendLater(next - now)
    }

    /// The scheduled send of `catalog` is going out at `now`.
    package func scheduledSent(catalog: Int64, now: ContinuousClock.Instant = .now) {
        lock.lock()
        defer { lock.unlock() }
        catalogs[catalog] = (now, false)
    }

    /// The statement that wakes the catalog's listeners.
    static let statement = "SELECT pg_notify(build_queue_channel(), '')"

    /// After an outermost commit on `guarded` (whose lock the caller holds, with `connection`)
    /// that queued work for `catalog`: sends now, schedules a send, or does nothing.
    func committed(catalog: Int64, connection: any CatalogConnection, guarded: GuardedConnection) {
        switch request(catalog: catalog) {
        case .sendNow:
            try? connection.execute(Self.statement)
        case .sendLater(let delay):
            let seconds = delay.seconds
            // A thread of its own, not Dispatch's global queue: that queue runs as many items at
            // once as there are cores, and a batch's `concurrentPerform` can hold all of them for
            // its whole run, which held a wake-up back for more than 10 s under TSan. At most
            // one such thread per catalog per `window`. `guarded` is held strongly until the
            // send: a weak reference's side table outlives a store that is still open at exit,
            // and LeakSanitizer reported it when `watch` stopped within the window.
            let sender = Thread {
                Thread.sleep(forTimeInterval: seconds)
                self.scheduledSent(catalog: catalog)
                guarded.withConnection { try? $0.execute(Self.statement) }
            }
            sender.name = "thumbkit-queue-wake"
            sender.start()
        case .covered:
            break
        }
    }
}
