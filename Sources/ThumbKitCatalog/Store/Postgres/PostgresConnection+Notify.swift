// SPDX-License-Identifier: Apache-2.0
import CPostgres
import Foundation
import ThumbKit

/// One `NOTIFY` received on a channel this connection listens to.
struct PostgresNotification: Sendable, Hashable {
    /// The channel it was sent on.
    let channel: String
    /// The payload (empty when none was given).
    let payload: String
    /// The server process of the connection that sent it.
    let senderPID: Int32
}

// Advisory locks: PostgreSQL's counterpart of SQLite's `BEGIN IMMEDIATE` for writers that must
// exclude each other (schema migrations, shared outputs). Transaction-level only: the lock is
// released by COMMIT or ROLLBACK, so no path can forget to unlock it.
extension PostgresConnection {
    /// A stable 64-bit lock key for a name (FNV-1a over its UTF-8), the same in every process.
    static func advisoryKey(_ name: String) -> Int64 {
        Int64(bitPattern: FNV1a.hash64(name.utf8))
    }

    /// Waits for the advisory lock `key` until the transaction ends (at most the lock timeout,
    /// then `.locked`). Must be called inside `transaction`.
    func advisoryTransactionLock(_ key: Int64) throws(CatalogError) {
        try requireTransaction("advisory lock")
        try run("SELECT pg_advisory_xact_lock(?)", [.integer(Int(key))])
    }

    /// Takes the advisory lock `key` until the transaction ends if nobody holds it; false when
    /// another session does. Must be called inside `transaction`.
    func tryAdvisoryTransactionLock(_ key: Int64) throws(CatalogError) -> Bool {
        try requireTransaction("advisory lock")
        return try queryFirst("SELECT pg_try_advisory_xact_lock(?)", [.integer(Int(key))]) { $0.int(0) == 1 } ?? false
    }

    private func requireTransaction(_ what: String) throws(CatalogError) {
        guard depth > 0 else {
            throw CatalogError.database(
                path: location, reason: "\(what) outside a transaction would be released at once")
        }
    }
}

// LISTEN / NOTIFY: how a worker learns that there is new work without polling every moment.
// Notifications are delivered between transactions only, and a NOTIFY sent inside a
// transaction goes out when it commits (not at all when it rolls back).
extension PostgresConnection {
    /// Subscribes to `channel` (any name; it is quoted). Kept across `reconnect`.
    func listen(_ channel: String) throws(CatalogError) {
        try execute("LISTEN \(Self.quoteIdentifier(channel))")
        if !channels.contains(channel) { channels.append(channel) }
    }

    /// Stops listening to `channel`.
    func unlisten(_ channel: String) throws(CatalogError) {
        try execute("UNLISTEN \(Self.quoteIdentifier(channel))")
        channels.removeAll { $0 == channel }
    }

    /// Sends `payload` (under 8000 bytes) on `channel`; inside a transaction, at its commit.
    func notify(_ channel: String, payload: String = "") throws(CatalogError) {
        try run("SELECT pg_notify(?, ?)", [.text(channel), .text(payload)])
    }

    /// The next notification: one already received, or the first to arrive within `timeout`
    /// (nil when none does). Sleeps in `poll` on the connection's socket, so it costs nothing
    /// while it waits. Throws `.open` ("connection lost") when the connection drops.
    func waitForNotification(timeout: Duration) throws(CatalogError) -> PostgresNotification? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let notification = nextNotification() { return notification }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return nil }
            let socket = PQsocket(handle)
            guard socket >= 0 else { throw connectionError("connection lost") }
            let milliseconds = Int32(clamping: remaining.milliseconds + 1)
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw CatalogError.database(path: location, reason: "poll failed: \(String(cString: strerror(errno)))")
            }
            // Readable, or hung up: PQconsumeInput reads what came, or reports the loss.
            if ready > 0 && PQconsumeInput(handle) != 1 { throw connectionError("connection lost") }
        }
    }

    /// A notification libpq has already read, if any.
    private func nextNotification() -> PostgresNotification? {
        guard let pointer = PQnotifies(handle) else { return nil }
        defer { PQfreemem(pointer) }
        let notify = pointer.pointee
        return PostgresNotification(
            channel: String(cString: notify.relname), payload: notify.extra.map { String(cString: $0) } ?? "",
            senderPID: notify.be_pid)
    }
}
