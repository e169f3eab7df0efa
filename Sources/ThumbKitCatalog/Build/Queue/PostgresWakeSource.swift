// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// Wakes an idle worker of a PostgreSQL catalog as soon as a record is queued: it `LISTEN`s on
/// the catalog's channel (`build_queue_channel()`, on which a store that committed claimable
/// work sends a debounced `pg_notify` of its own, `QueueWakeNotifier`) over a connection of its
/// own, read by a thread of its own. The poll interval stays the fallback: notifications do not pass a
/// transaction-pooling PgBouncer, a failed record's retry time sends none, and any sent while
/// the connection was down are lost (after reconnecting it wakes the worker once, to look).
///
/// When the connection drops, the thread reconnects with backoff (0.5 s doubling to 30 s), one
/// `log` line per attempt; meanwhile the worker goes on polling.
public final class PostgresWakeSource: WakeSource {
    /// What the listening thread and the waiting worker share, under `condition`.
    private final class State: Sendable {
        let condition = NSCondition()
        /// A notification came (or the connection came back) since the last `wait` returned.
        nonisolated(unsafe) var pending = false
        /// `interrupt()` was called: every wait returns at once and the thread ends.
        nonisolated(unsafe) var stopped = false
        // nonisolated(unsafe): both are only read or written while `condition` is locked.

        func signal(stop: Bool = false) {
            condition.lock()
            pending = true
            if stop { stopped = true }
            condition.broadcast()
            condition.unlock()
        }

        var isStopped: Bool {
            condition.lock()
            defer { condition.unlock() }
            return stopped
        }
    }

    private let state = State()
    /// The channel listened to.
    public let channel: String

    /// Connects to `store`'s PostgreSQL catalog, listens, and starts the listening thread.
    /// Returns once the `LISTEN` is in place: a change committed after this wakes `wait`.
    ///
    /// - Parameter log: Gets one line per lost connection and per reconnection attempt.
    /// - Throws: `CatalogError.open` when the connection cannot be made; `.database` when
    ///   `store` is not a PostgreSQL catalog.
    public convenience init(store: CatalogStore, log: @escaping @Sendable (String) -> Void = { _ in }) throws {
        guard case .postgres(let url) = store.location else {
            throw CatalogError.database(path: store.path, reason: "LISTEN/NOTIFY needs a PostgreSQL catalog")
        }
        try self.init(url: url, log: log)
    }

    init(url: String, log: @escaping @Sendable (String) -> Void) throws {
        let connection = try PostgresConnection(url: url)
        guard let name = try connection.queryFirst("SELECT build_queue_channel()", { $0.string(0) }) else {
            throw CatalogError.schema(path: connection.location, reason: "build_queue_channel() returned nothing")
        }
        try connection.listen(name)
        channel = name
        // nonisolated(unsafe): the connection moves to the thread, the only user from here on.
        nonisolated(unsafe) let owned = connection
        let state = self.state
        let thread = Thread { Self.listen(owned, state: state, log: log) }
        thread.name = "thumbkit-listen"
        thread.start()
    }

    deinit { state.signal(stop: true) }

    public func wait(timeout: Duration) {
        let deadline = Date().addingTimeInterval(Double(timeout.milliseconds) / 1000)
        state.condition.lock()
        defer { state.condition.unlock() }
        while !state.pending && !state.stopped {
            if !state.condition.wait(until: deadline) { break }
        }
        state.pending = false
    }

    public func interrupt() { state.signal(stop: true) }

    /// The thread: reads notifications until stopped, reconnecting with backoff when the
    /// connection is lost. Checks for a stop every second.
    private static func listen(
        _ connection: PostgresConnection, state: State, log: @Sendable (String) -> Void
    ) {
        var attempt = 0
        while !state.isStopped {
            do {
                if attempt > 0 {
                    try connection.reconnect()
                    log("\(connection.location): listening again after \(attempt) attempt(s)")
                    attempt = 0
                    state.signal()  // whatever was sent meanwhile is lost: look now
                }
                if try connection.waitForNotification(timeout: .seconds(1)) != nil {
                    state.signal()
                }
            } catch {
                attempt += 1
                let delay = PostgresReconnection.delay(afterAttempt: attempt)
                log("\(error); reconnecting in \(PostgresReconnection.seconds(delay)) (attempt \(attempt))")
                state.condition.lock()
                let until = Date().addingTimeInterval(Double(delay.milliseconds) / 1000)
                while !state.stopped, state.condition.wait(until: until) {}
                state.condition.unlock()
            }
        }
    }
}
