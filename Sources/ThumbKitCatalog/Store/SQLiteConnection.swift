// SPDX-License-Identifier: Apache-2.0
import CSQLite
import Foundation

/// One SQLite connection. Not thread-safe and not Sendable: `CatalogStore` owns it and only
/// touches it while holding its lock.
final class SQLiteConnection: CatalogConnection {
    /// The database file.
    let path: String
    /// The open handle (closed in `deinit`).
    let handle: OpaquePointer
    /// How long SQLite waits for another connection's lock.
    let busyTimeoutMilliseconds: Int32
    /// How many `transaction` calls are open on this connection (0 outside any).
    var depth = 0
    /// Compiled statements by SQL text, reset and unbound, for the next `run` or `query` of the
    /// same text (an import runs a handful of statements 100,000 times; compiling each time
    /// was most of its cost). Finalized in `deinit`, before the handle is closed.
    private(set) var statements = SQLiteStatementCache()

    /// The database file.
    var location: String { path }

    var dialect: CatalogDialect { .sqlite }

    /// How a connection opens its file.
    enum Access {
        /// Read and write, creating the file when it does not exist.
        case create
        /// Read and write an existing file (never creates one).
        case readWrite
        /// Read only (`SQLITE_OPEN_READONLY`).
        case readOnly
        /// Read only, and SQLite may assume nobody changes the file (`immutable=1`): for a
        /// database on a read-only mount, where SQLite cannot create the WAL index.
        case immutable
    }

    /// Opens the database at `path` as `access` says, with extended result codes and a busy
    /// timeout. Nothing is read yet, so a file that is not a database is only found by the first
    /// statement.
    init(path: String, busyTimeoutMilliseconds: Int32, access: Access = .create) throws(CatalogError) {
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        var db: OpaquePointer?
        // NOMUTEX: the connection is only ever used under CatalogStore's lock, so SQLite's own
        // per-connection mutex would only add cost.
        var flags = SQLITE_OPEN_NOMUTEX
        var name = path
        switch access {
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .immutable:
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            var allowed = CharacterSet.urlPathAllowed
            allowed.remove(charactersIn: "?#%")
            name = "file:" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path) + "?immutable=1"
        }
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let reason = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(db)
            throw CatalogError.open(path: path, reason: "cannot open database: \(reason.lowercased())")
        }
        self.handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Whether SQLite opened the main database read-only (asked to, or because the file cannot
    /// be written).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// The CatalogError for result code `rc` (SQLite's message for this connection as the reason).
    func error(_ rc: Int32, _ sql: String? = nil) -> CatalogError {
        let message = String(cString: sqlite3_errmsg(handle)).lowercased()
        switch rc & 0xff {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return .locked(
                path: path,
                reason: "database is locked by another connection (gave up after \(busyTimeoutMilliseconds) ms)")
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            return .corrupt(path: path, reason: message)
        case SQLITE_CONSTRAINT:
            return .constraint(path: path, reason: message)
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY:
            return .open(path: path, reason: message)
        default:
            return .database(path: path, reason: sql.map { "\(message) (in \($0.prefix(60)))" } ?? message)
        }
    }

    /// Compiles one statement.
    func prepare(_ sql: String) throws(CatalogError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw error(rc, sql)
        }
        return SQLiteStatement(handle: statement, connection: self)
    }

    /// Runs one or more statements that take no parameters and return no rows.
    func execute(_ sql: String) throws(CatalogError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, sql) }
    }

    /// Runs `body` with the statement for `sql`, bound to `values`: the cached one when there is
    /// one, else freshly compiled. The statement is taken out of the cache while `body` runs (a
    /// nested use of the same text, from a row's map, compiles its own), then reset, unbound and
    /// put back, whether `body` returned or threw: a cached statement never holds a read
    /// snapshot or a value of an earlier call. A statement compiled before a schema change is
    /// recompiled by SQLite at its next step (`sqlite3_prepare_v2`), or fails there as a fresh
    /// one would have failed to compile.
    private func withStatement<T>(
        _ sql: String, _ values: [CatalogValue], _ body: (SQLiteStatement) throws(CatalogError) -> T
    ) throws(CatalogError) -> T {
        let statement: SQLiteStatement
        if let cached = statements.take(sql) { statement = cached } else { statement = try prepare(sql) }
        defer {
            statement.reset()
            statements.put(statement, for: sql)
        }
        try statement.bind(values)
        return try body(statement)
    }

    /// Runs one statement with `values` bound to its `?` parameters; returns the rows changed.
    @discardableResult
    func run(_ sql: String, _ values: [CatalogValue]) throws(CatalogError) -> Int {
        try withStatement(sql, values) { statement throws(CatalogError) in
            while try statement.step() {}
            return Int(sqlite3_changes(handle))
        }
    }

    /// Runs one query and maps every row.
    func query<T>(
        _ sql: String, _ values: [CatalogValue], _ map: (CatalogRow) throws(CatalogError) -> T
    ) throws(CatalogError) -> [T] {
        try withStatement(sql, values) { statement throws(CatalogError) in
            var rows: [T] = []
            while try statement.step() { rows.append(try map(.sqlite(SQLiteRow(handle: statement.handle)))) }
            return rows
        }
    }

    /// The first row of a query, mapped, or nil if there is none.
    func queryFirst<T>(
        _ sql: String, _ values: [CatalogValue], _ map: (CatalogRow) throws(CatalogError) -> T
    ) throws(CatalogError) -> T? {
        try withStatement(sql, values) { statement throws(CatalogError) in
            guard try statement.step() else { return nil }
            return try map(.sqlite(SQLiteRow(handle: statement.handle)))
        }
    }

    /// The rowid of the last insert on this connection.
    var lastInsertRowID: Int { Int(sqlite3_last_insert_rowid(handle)) }

    /// Runs the insert, then reads `last_insert_rowid()` (no second statement).
    func insertReturningID(_ sql: String, _ values: [CatalogValue]) throws(CatalogError) -> Int {
        try run(sql, values)
        return lastInsertRowID
    }

    /// The insert with `ON CONFLICT DO NOTHING`, then the top-level changes count (a trigger's
    /// inserts are not in it) and `last_insert_rowid()`. Not `RETURNING`: a statement with
    /// `RETURNING` must be stepped to its end, and this one is cached and reset after one row.
    func insertUnlessConflicting(_ sql: String, _ values: [CatalogValue]) throws(CatalogError) -> Int? {
        try run(sql + " ON CONFLICT DO NOTHING", values) == 0 ? nil : lastInsertRowID
    }

    /// `BEGIN IMMEDIATE` for a write in every mode: SQLite has one writer at a time.
    func begin(write: Bool, mode: WriteLockMode) throws(CatalogError) {
        try execute(dialect.begin(write: write, mode: mode, keys: nil))
    }

    /// A savepoint; a write inside a read transaction takes SQLite's write lock at its first
    /// change (and may meet `.locked` if another process wrote meanwhile).
    func beginSavepoint(_ name: String, write: Bool, mode: WriteLockMode) throws(CatalogError) {
        try execute("SAVEPOINT \(name)")
    }

    /// SQLite can always commit what is open.
    func checkCommittable() throws(CatalogError) {}

    /// A failure here leaves nothing more to do: SQLite has already rolled back when ROLLBACK
    /// itself fails.
    func rollbackAll() {
        if sqlite3_get_autocommit(handle) == 0 { _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
    }
}
