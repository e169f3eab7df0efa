import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The catalog database: one SQLite file (plus SQLite's own `-wal` and `-shm` files beside it;
/// nothing else is ever written there) in WAL mode with foreign keys on.
///
/// ### Concurrency
/// The store is a synchronous, lock-protected final class rather than an actor because every
/// caller (the CLI, the build step) is synchronous and SQLite calls block anyway: an actor would
/// force `await` through the whole CLI and park a cooperative-pool thread on disk I/O.
///
/// Within one process, every use of the one connection happens inside `read` or `write`, which
/// hold `lock` for the whole transaction, so the connection is only ever touched by one thread at
/// a time (SQLite's own per-connection mutex is switched off for that reason). The lock is
/// recursive so that store methods may be called from inside a `write` block on the same thread;
/// the inner call becomes a savepoint of the outer transaction.
///
/// Between processes (a watch folder next to a build), SQLite's file locks apply: WAL lets readers
/// go on while one writer writes, and a second writer waits up to `busyTimeout` before the
/// operation fails with `CatalogError.locked`. Write transactions start with `BEGIN IMMEDIATE`, so
/// that wait happens before any change is made, never half-way through.
public final class CatalogStore: Sendable {
    /// The database file.
    public let path: String

    /// Guards `connection`. `NSRecursiveLock` is Sendable.
    private let lock = NSRecursiveLock()

    /// Only read or used while `lock` is held (see the type's comment), which is what makes
    /// sharing this non-Sendable reference across threads safe.
    nonisolated(unsafe) private let connection: SQLiteConnection

    /// Whether this store was opened read-only (every `write` then fails).
    public let isReadOnly: Bool

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
            path: path, busyTimeout: busyTimeout, schemaVersion: CatalogSchema.latestVersion, readOnly: readOnly)
    }

    /// Opens the catalog migrated only up to `schemaVersion` (tests build old databases this way).
    init(path: String, busyTimeout: Duration, schemaVersion: Int, readOnly: Bool = false) throws {
        var isFolder: ObjCBool = false
        let folder = (path as NSString).deletingLastPathComponent
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw CatalogError.open(path: path, reason: "is a folder, not a database file")
        }
        if !folder.isEmpty,
            !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder)
                || !isFolder.boolValue
        {
            throw CatalogError.open(path: path, reason: "folder '\(folder)' does not exist")
        }
        var info = stat()
        let existed = lstat(path, &info) == 0
        if existed, (info.st_mode & S_IFMT) == S_IFREG, info.st_size == 0 {
            throw CatalogError.corrupt(
                path: path,
                reason: "empty file (0 bytes), not a thumbkit catalog; restore it from a backup or remove it")
        }
        if readOnly, !existed {
            throw CatalogError.notFound(path: path, reason: "no catalog here")
        }
        let (seconds, attoseconds) = busyTimeout.components
        let millis = Int32(max(0, min(Int64(Int32.max), seconds * 1000 + attoseconds / 1_000_000_000_000_000)))
        let connection: SQLiteConnection
        if readOnly {
            connection = try Self.openReadOnly(path: path, busyTimeoutMilliseconds: millis)
        } else {
            connection = try SQLiteConnection(
                path: path, busyTimeoutMilliseconds: millis, access: existed ? .readWrite : .create)
            if connection.isReadOnly { throw Self.cannotWrite(path, "the file is read-only") }
        }
        // The first statement reads the header: a file that is not a database fails here.
        do {
            if existed, try !CatalogSchema.hasCatalogTables(connection) {
                throw CatalogError.corrupt(path: path, reason: "not a thumbkit catalog (it has none of its tables)")
            }
            if readOnly {
                try CatalogSchema.check(try CatalogSchema.userVersion(connection), path: path)
                try connection.execute("PRAGMA foreign_keys = ON")
            } else {
                let mode = try connection.queryFirst("PRAGMA journal_mode = WAL") { $0.string(0) }
                guard mode?.lowercased() == "wal" else {
                    throw CatalogError.database(
                        path: path, reason: "cannot switch to WAL mode (journal mode is \(mode ?? "unknown"))")
                }
                try connection.execute("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL")
                try CatalogSchema.migrate(connection, to: schemaVersion)
            }
        } catch CatalogError.open(_, let reason) where !readOnly {
            // SQLite could not create the `-wal`/`-shm` files or write the file.
            throw Self.cannotWrite(path, "\(reason); is its folder read-only?")
        }
        self.path = path
        self.connection = connection
        self.isReadOnly = readOnly
    }

    /// A read-only connection that has read the header: plain `SQLITE_OPEN_READONLY` first, and
    /// `immutable` when SQLite cannot reach the WAL index (a read-only mount or folder).
    private static func openReadOnly(path: String, busyTimeoutMilliseconds millis: Int32) throws -> SQLiteConnection {
        let plain = try SQLiteConnection(path: path, busyTimeoutMilliseconds: millis, access: .readOnly)
        do {
            _ = try plain.queryFirst("SELECT COUNT(*) FROM sqlite_master") { $0.int(0) }
            return plain
        } catch CatalogError.open {
            return try SQLiteConnection(path: path, busyTimeoutMilliseconds: millis, access: .immutable)
        }
    }

    /// The error for a catalog that commands which change it cannot use.
    private static func cannotWrite(_ path: String, _ why: String) -> CatalogError {
        .open(path: path, reason: "cannot write the catalog: \(why) (list, show, export and site only read it)")
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`): every change it makes is committed
    /// together when it returns, or rolled back when it throws (the error is rethrown). Called
    /// from inside another `write` or `read` on the same thread, it runs as a savepoint.
    ///
    /// Do not keep the transaction past `body`: its methods trap once it has ended.
    @discardableResult
    public func write<T>(_ body: (CatalogTransaction) throws -> T) throws -> T {
        try withConnection(write: true, body)
    }

    /// Runs `body` in a read transaction, so all its queries see one snapshot. (A `write` nested
    /// inside it may meet `CatalogError.locked` if another process wrote meanwhile: start with
    /// `write` when a block changes anything.)
    @discardableResult
    public func read<T>(_ body: (CatalogTransaction) throws -> T) throws -> T {
        try withConnection(write: false, body)
    }

    private func withConnection<T>(write: Bool, _ body: (CatalogTransaction) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        let transaction = CatalogTransaction(connection: connection)
        defer { transaction.end() }
        return try connection.transaction(write: write) { try body(transaction) }
    }

    /// The journal mode SQLite reports (`wal`).
    public func journalMode() throws -> String {
        try read { try $0.connection.queryFirst("PRAGMA journal_mode") { $0.string(0) } ?? "" }
    }

    /// Whether foreign keys are enforced on this connection (always true).
    public func foreignKeysEnabled() throws -> Bool {
        try read { try $0.connection.queryFirst("PRAGMA foreign_keys") { $0.int(0) == 1 } ?? false }
    }

    /// The schema version (`PRAGMA user_version`).
    public func schemaVersion() throws -> Int {
        try read { try CatalogSchema.userVersion($0.connection) }
    }

    /// The schema version a freshly opened store has.
    public static var latestSchemaVersion: Int { CatalogSchema.latestVersion }

    /// Runs SQLite's `PRAGMA quick_check`; returns its complaints (empty when the file is sound).
    public func quickCheck() throws -> [String] {
        let rows = try read { try $0.connection.query("PRAGMA quick_check") { $0.string(0) } }
        return rows == ["ok"] ? [] : rows
    }
}
