// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The handle a `CatalogStore.read` or `write` block works through. Every query and change the
/// catalog offers is a method here (in the `CatalogTransaction+…` files), so several of them can
/// share one transaction. It is not Sendable and is only valid inside its block.
public final class CatalogTransaction {
    package let connection: any CatalogConnection
    private var isOpen = true
    /// Asks for the catalog's idle workers to be woken after the outermost commit.
    private let wake: () -> Void
    /// Withdraws that request (`claimedQueuedWork`).
    private let unwake: () -> Void

    init(connection: any CatalogConnection, wake: @escaping () -> Void = {}, unwake: @escaping () -> Void = {}) {
        self.connection = connection
        self.wake = wake
        self.unwake = unwake
    }

    /// This transaction queued claimable work (changed a record or a setting that queues builds,
    /// queued or released a build): once it commits, the catalog's idle workers are woken
    /// (`QueueWakeNotifier`). The claim and the commit of a built bug or food do not call it;
    /// the commit that lets go of the app entry does (the bugs it held back are claimable).
    package func queuedWork() { wake() }

    /// Everything this transaction queued is held by a claim it took itself
    /// (`BuildQueue.claimOwn`): no idle worker is woken for it. Only for a transaction that
    /// queued nothing else.
    package func claimedQueuedWork() { unwake() }

    func end() { isOpen = false }

    /// The connection, checked to be inside its block.
    package var db: any CatalogConnection {
        precondition(isOpen, "A CatalogTransaction was used after its read/write block ended.")
        return connection
    }

    /// The database file or the redacted URL (the path of store-level errors).
    public var databasePath: String { connection.location }

    /// Runs `body` in a savepoint: its changes are undone if it throws, while the enclosing
    /// transaction goes on (the import uses this to skip one bad record).
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        try db.transaction(write: true, body)
    }

    /// `Timestamp` text for now.
    var now: String { Timestamp.string(from: Date()) }

    /// Reads a stored timestamp, reporting a malformed one as corruption.
    func date(_ text: String, _ ref: String) throws(CatalogError) -> Date {
        try Timestamp.date(stored: text, of: ref, in: connection.location)
    }
}

@available(*, unavailable, message: "A CatalogTransaction belongs to the thread running its block.")
extension CatalogTransaction: Sendable {}
