// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The catalog database: one SQLite file (plus SQLite's own `-wal` and `-shm` files beside it;
/// nothing else is ever written there) in WAL mode with foreign keys on, or one PostgreSQL
/// schema (the current one of the URL's database, usually `public`). Both hold the same
/// tables and give the same answers; everything above the store's connection
/// (`CatalogConnection`) is the same code on both.
///
/// ### Concurrency
/// The store is a synchronous, lock-protected final class rather than an actor because every
/// caller (the CLI, the build step) is synchronous and database calls block anyway: an actor
/// would force `await` through the whole CLI and park a cooperative-pool thread on I/O.
///
/// Within one process, every use of the one connection happens inside `read` or `write`, which
/// hold a lock for the whole transaction (`GuardedConnection`), so the connection is only ever
/// touched by one thread at a time. Store methods may be called from inside a `write` block on
/// the same thread; the inner call becomes a savepoint of the outer transaction.
///
/// Between processes (a watch folder next to a build), SQLite's file locks apply: WAL lets readers
/// go on while one writer writes, and a second writer waits up to `busyTimeout` before the
/// operation fails with `CatalogError.locked`. Write transactions start with `BEGIN IMMEDIATE`, so
/// that wait happens before any change is made, never half-way through. On PostgreSQL a write
/// transaction takes the catalog's advisory lock first, with the same effect (`lock_timeout` is
/// `busyTimeout`), and a read transaction sees one snapshot.
public final class CatalogStore: Sendable {
    /// The database file, or the PostgreSQL URL with its password replaced by `***`.
    public let path: String

    /// Where the catalog is.
    package let location: CatalogLocation

    /// The connection, used one transaction at a time.
    private let connection: GuardedConnection

    /// SQLite, writable: the read-only connections `read` uses when this thread is not inside
    /// one of the writer's transactions (`SQLiteReaders`). Nil on PostgreSQL (a lane there has
    /// a connection of its own, `sibling()`) and for a read-only store (no writer to wait for).
    private let readers: SQLiteReaders?

    /// Whether this store was opened read-only (every `write` then fails).
    public let isReadOnly: Bool

    /// How long a write waits for another connection's lock (`sibling()` opens with it too).
    private let busyTimeout: Duration

    /// Opens the catalog at `path`, creating it only if no file is there, and migrates it to
    /// the latest schema version. A file that is there must be a catalog: a zero-length file, an
    /// empty database or another program's database is refused, never taken for a new catalog.
    ///
    /// - Parameters:
    ///   - path: The database file. Its folder must exist.
    ///   - busyTimeout: How long to wait for another connection's lock before giving up with
    ///     `CatalogError.locked`.
    ///   - readOnly: Open for reading only (`SQLITE_OPEN_READONLY`), for commands that only
    ///     read: the file must exist, it is not migrated, and it may sit on a read-only mount.
    /// - Throws: `CatalogError.open` (missing folder, permissions, a catalog that cannot be
    ///   written), `.notFound` (read-only and missing), `.corrupt` (not a catalog), `.locked`, or
    ///   `.schema` (a newer or negative schema version, a failed migration).
    public convenience init(path: String, busyTimeout: Duration = .seconds(5), readOnly: Bool = false) throws {
        try self.init(
            location: .sqlite(path: path), busyTimeout: busyTimeout, schemaVersion: CatalogSchema.latestVersion,
            readOnly: readOnly)
    }

    /// Opens the catalog at `location` (a `--catalog` value: a file path or a `postgres://`
    /// URL) as `init(path:)` does. On PostgreSQL the catalog is the URL's current schema: it
    /// is created there (and migrated forward, under an advisory lock, so two processes
    /// starting at once do not race) when the schema holds no tables, and refused when it
    /// holds other tables. Errors name the redacted URL only.
    ///
    /// - Parameters:
    ///   - mustExist: Refuse a location that holds no catalog yet (`.notFound`) instead of
    ///     creating one there.
    /// - Throws: as `init(path:)`; on PostgreSQL also `.open` (server unreachable,
    ///   authentication failed) and `.notFound` (database missing).
    package convenience init(
        location: CatalogLocation, busyTimeout: Duration = .seconds(5), readOnly: Bool = false, mustExist: Bool = false
    ) throws {
        try self.init(
            location: location, busyTimeout: busyTimeout, schemaVersion: CatalogSchema.latestVersion,
            readOnly: readOnly, mustExist: mustExist)
    }

    /// Opens the catalog migrated only up to `schemaVersion` (tests build old databases this way).
    convenience init(path: String, busyTimeout: Duration, schemaVersion: Int, readOnly: Bool = false) throws {
        try self.init(
            location: .sqlite(path: path), busyTimeout: busyTimeout, schemaVersion: schemaVersion, readOnly: readOnly)
    }

    init(
        location: CatalogLocation, busyTimeout: Duration, schemaVersion: Int, readOnly: Bool = false,
        mustExist: Bool = false
    ) throws {
        let millis = busyTimeout.timeoutMilliseconds
        switch location {
        case .sqlite(let path):
            connection = GuardedConnection(
                try CatalogSchema.definition.openSQLite(
                    path: path, busyTimeoutMilliseconds: millis, version: schemaVersion, readOnly: readOnly,
                    mustExist: mustExist))
            readers = readOnly ? nil : SQLiteReaders(path: path, busyTimeoutMilliseconds: millis)
        case .postgres(let url):
            readers = nil
            connection = GuardedConnection(
                try Self.openPostgres(
                    url: url, lockTimeoutMilliseconds: Int(millis), schemaVersion: schemaVersion, readOnly: readOnly,
                    mustExist: mustExist))
        }
        self.location = location
        self.path = location.redacted
        self.isReadOnly = readOnly
        self.busyTimeout = busyTimeout
    }

    /// A store released without `close` closes its readers first too, so that the writer's
    /// connection, released after them, is the last and removes the `-wal`.
    deinit {
        readers?.close()
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`): every change it makes is committed
    /// together when it returns, or rolled back when it throws (the error is rethrown). Called
    /// from inside another `write` or `read` on the same thread, it runs as a savepoint.
    ///
    /// Do not keep the transaction past `body`: its methods trap once it has ended.
    @discardableResult
    public func write<T>(_ body: (CatalogTransaction) throws -> T) throws -> T {
        try withConnection(write: true, mode: .exclusive, body)
    }

    /// `write` holding the catalog's write lock in `mode` (PostgreSQL; SQLite has one writer
    /// whatever the mode). Only for writes whose concurrency `WriteLockMode` describes.
    @discardableResult
    package func write<T>(mode: WriteLockMode, _ body: (CatalogTransaction) throws -> T) throws -> T {
        try withConnection(write: true, mode: mode, body)
    }

    /// Runs `body` in a read transaction, so all its queries see one snapshot. Inside a `write`
    /// on the same thread it is part of that transaction (and sees its changes). Otherwise, on
    /// SQLite, it runs on a read-only connection of its own (`SQLiteReaders`), so it never
    /// waits for another thread's write; it sees the last commit. (A `write` called from
    /// inside it is a transaction of its own: start with `write` when a block changes
    /// anything.)
    @discardableResult
    public func read<T>(_ body: (CatalogTransaction) throws -> T) throws -> T {
        if let readers, !connection.isHeldByCurrentThread, let reader = readers.checkout() {
            defer { readers.checkin(reader) }
            return try reader.transaction(write: false) { connection in
                let transaction = CatalogTransaction(connection: connection)
                defer { transaction.end() }
                return try body(transaction)
            }
        }
        return try withConnection(write: false, mode: .exclusive, body)
    }

    /// Runs `body` outside any transaction: each statement sees the catalog as it is when that
    /// statement starts (autocommit), with no `BEGIN` or `COMMIT` around them. For a few
    /// look-ups whose answers need not come from one snapshot, on a hot path (the watch
    /// folder's first question about a file: two statements, not four). Read only: the one
    /// write allowed outside a transaction is ``writeAlone(_:_:)``.
    package func readEach<T>(_ body: (CatalogTransaction) throws -> T) throws -> T {
        try autocommit(body)
    }

    /// One write statement outside any transaction and outside the catalog's write lock
    /// (autocommit; on PostgreSQL it takes only its rows' locks). Only for rows no lock
    /// protects but their own: the planning turn (`PlanningTurn`), which must not wait for an
    /// exclusive writer before planning's file work. Returns the rows changed.
    @discardableResult
    package func writeAlone(_ sql: String, _ values: [CatalogValue]) throws -> Int {
        try autocommit { tx in try tx.db.run(sql, values) }
    }

    /// `body` on a connection with no transaction open: each statement commits alone.
    private func autocommit<T>(_ body: (CatalogTransaction) throws -> T) throws -> T {
        let result: T? = try connection.withConnection { connection in
            let transaction = CatalogTransaction(connection: connection)
            defer { transaction.end() }
            return try body(transaction)
        }
        guard let result else { throw connection.closedError }
        return result
    }

    private func withConnection<T>(
        write: Bool, mode: WriteLockMode, _ body: (CatalogTransaction) throws -> T
    ) throws -> T {
        try connection.transaction(write: write, mode: mode) { connection in
            let transaction = CatalogTransaction(
                connection: connection, wake: self.connection.requestWake, unwake: self.connection.cancelWake)
            defer { transaction.end() }
            return try body(transaction)
        }
    }

    /// Closes the catalog now: SQLite checkpoints its write-ahead log into the file and removes
    /// it, PostgreSQL ends the session. Every command calls this before it returns, so that no
    /// reference to the store that outlives the command (a thread still winding down) can
    /// write to the catalog afterwards, even to checkpoint: after `close`, `read` and `write`
    /// fail with `CatalogError.database` and touch nothing. A transaction another thread is
    /// running finishes first. Closing twice does nothing. Must not be called from inside one
    /// of this store's own transactions.
    public func close() {
        readers?.close()  // first: the writer, closed last, removes the `-wal`
        connection.close()
    }

    /// From now on, tells `observer` how long each write transaction waited for the catalog's
    /// write lock and that it committed (`thumbkit worker --queue-stats`).
    package func observeWrites(_ observer: any WriteTransactionObserver) {
        connection.observeWrites(observer)
    }

    /// The journal mode SQLite reports (`wal`); on PostgreSQL, `postgresql`.
    public func journalMode() throws -> String {
        try read { try $0.connection.dialect.journalMode($0.connection) }
    }

    /// Whether foreign keys are enforced on this connection (always true).
    public func foreignKeysEnabled() throws -> Bool {
        try read { try $0.connection.dialect.foreignKeysEnabled($0.connection) }
    }

    /// The schema version (`PRAGMA user_version`, or PostgreSQL's `schema_version` table).
    public func schemaVersion() throws -> Int {
        try read { try CatalogSchema.userVersion($0.connection) }
    }

    /// The schema version a freshly opened store has.
    public static var latestSchemaVersion: Int { CatalogSchema.latestVersion }

    /// Runs SQLite's `PRAGMA quick_check`; returns its complaints (empty when the file is
    /// sound). PostgreSQL has no cheap equivalent: always empty there.
    public func quickCheck() throws -> [String] {
        try read { try $0.connection.dialect.quickCheck($0.connection) }
    }
}

// Reconnecting (`PostgresReconnection`): for the long-running commands, `worker` and `build`.
extension CatalogStore {
    /// From now on, a PostgreSQL connection found lost at the start of a transaction is reopened
    /// under `policy`. Nothing changes for an SQLite catalog.
    package func reconnect(with policy: PostgresReconnection) {
        connection.withConnection { ($0 as? PostgresConnection)?.reconnection = policy }
    }

    /// PostgreSQL: the server ends this store's session when a transaction stays idle (open,
    /// no statement running) longer than `timeout` (`idle_in_transaction_session_timeout`),
    /// kept across reconnections. For the long-running commands (`worker`, `build`): a stuck or
    /// stopped process then neither holds the catalog's write lock nor a snapshot that keeps
    /// vacuum from removing the build queue's dead rows. Nothing changes on SQLite.
    package func limitIdleTransactions(to timeout: Duration) throws {
        try connection.withConnection { connection in
            guard let postgres = connection as? PostgresConnection else { return }
            let setting = "SET idle_in_transaction_session_timeout = \(max(1, timeout.milliseconds))"
            try postgres.execute(setting)
            postgres.sessionSettings.append(setting)
        }
    }

    /// Whether the connection is lost and will be reopened at the next transaction: a loop
    /// that met a failure then carries on (the failure was the drop), rather than stopping.
    package var willReconnect: Bool {
        connection.withConnection { ($0 as? PostgresConnection)?.willReconnect ?? false } ?? false
    }

    /// A second store on this catalog, with a connection of its own that behaves as this one's:
    /// the same busy timeout, reconnection policy, session settings and write observer. For
    /// the lanes of one PostgreSQL worker, so that one lane's transaction never holds up
    /// another's; the caller closes it.
    package func sibling() throws -> CatalogStore {
        let store = try CatalogStore(
            location: location, busyTimeout: busyTimeout, schemaVersion: CatalogSchema.latestVersion,
            readOnly: isReadOnly, mustExist: true)
        let (policy, settings) =
            connection.withConnection { mine -> (PostgresReconnection?, [String]) in
                let postgres = mine as? PostgresConnection
                return (postgres?.reconnection, postgres?.sessionSettings ?? [])
            } ?? (nil, [])
        try store.connection.withConnection { theirs in
            guard let postgres = theirs as? PostgresConnection else { return }
            for setting in settings { try postgres.execute(setting) }
            postgres.sessionSettings = settings
            postgres.reconnection = policy
        }
        if let observer = connection.writeObserver { store.observeWrites(observer) }
        return store
    }

    /// How many times the connection was found lost and reconnecting took over (0 on SQLite).
    package var connectionLosses: Int {
        connection.withConnection { ($0 as? PostgresConnection)?.losses ?? 0 } ?? 0
    }
}
