// SPDX-License-Identifier: Apache-2.0
import CPostgres
import Foundation

/// One PostgreSQL connection through libpq: the `CatalogConnection` that `SQLiteConnection` is
/// for SQLite (`execute`, `run`, `query`, `queryFirst`, `insertReturningID`, `transaction(write:)`
/// from the protocol, `?` placeholders), so the store above runs the same statements on either.
/// Not thread-safe and not Sendable: one owner uses it at a time, like `SQLiteConnection`.
///
/// Every statement with values goes through `PQexecParams` in text format: values never become
/// SQL text. PostgreSQL's `text` cannot hold a NUL character, so a `.text` value holding one is
/// refused as an invalid record (SQLite stores it; the store must not accept such a title on
/// either backend if the exports are to match).
final class PostgresConnection: CatalogConnection {
    /// The URL with its passwords replaced by `***`: the `path` of every error.
    let location: String
    /// How long a statement waits for a lock (row, table or advisory) before failing as locked.
    let lockTimeoutMilliseconds: Int
    /// Every form of the URL's passwords, scrubbed from every message.
    let secrets: [String]
    /// The libpq connection (finished in `deinit`).
    let handle: OpaquePointer
    /// How many `transaction` calls are open on this connection (0 outside any).
    var depth = 0
    /// The advisory locks every write transaction takes first (`CatalogDialect.begin`, in the
    /// transaction's `WriteLockMode`): the store sets them to its catalog's keys, so writers of
    /// one catalog exclude each other as their modes say. Nil: write transactions take no lock.
    var writeLockKeys: WriteLockKeys?
    /// The mode in which the open outermost transaction holds `writeLockKeys` (nil: a read
    /// transaction, or none open).
    private var heldMode: WriteLockMode?

    var dialect: CatalogDialect { .postgres }
    /// The channels `listen` subscribed to: `reconnect` listens to them again.
    var channels: [String] = []
    /// `SET` statements added to this session after it opened: `reconnect` runs them again.
    var sessionSettings: [String] = []
    /// The statements prepared in this session (emptied by `reconnect`).
    private(set) var statements = PostgresStatementCache()
    /// How a lost connection is reopened at the next `begin` (nil: it is not; the first
    /// statement after a drop fails). See `PostgresReconnection`.
    var reconnection: PostgresReconnection?
    /// When the current outage began (the first `begin` that found the connection lost); nil
    /// once a transaction ran through without losing it.
    var outageStart: ContinuousClock.Instant?
    /// Reconnection attempts made in the current outage.
    var outageAttempts = 0
    /// The error reconnecting gave up with: every later `begin` throws it at once.
    var gaveUp: CatalogError?
    /// How many times `begin` found the connection lost (and `reconnection` took over).
    var losses = 0

    /// Connects to `url`, which libpq reads as it is (`PG*` variables, `.pgpass`, `sslmode`,
    /// unix-socket hosts apply). Throws one clear line, classified as server unreachable,
    /// authentication failed (`.open`) or database missing (`.notFound`).
    /// A URL that libpq would read differently from what its writer meant, or refuse with a
    /// message quoting part of it, is refused first (`PostgresURL`), without any of its text.
    init(url: String, lockTimeoutMilliseconds: Int = 5000) throws(CatalogError) {
        location = CatalogLocation.redact(url)
        do throws(PostgresURL.Problem) {
            secrets = try PostgresURL(url).secrets
        } catch {
            throw CatalogError.open(path: location, reason: error.description)
        }
        self.lockTimeoutMilliseconds = lockTimeoutMilliseconds
        guard let conn = PQconnectdb(url) else {
            throw CatalogError.open(path: location, reason: "cannot connect: libpq is out of memory")
        }
        handle = conn
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(conn))
            // deinit finishes the handle.
            throw PostgresFailure.connectError(message, location: location, secrets: secrets)
        }
        // The server's NOTICEs (`… does not exist, skipping`) would go to stderr by default.
        PQsetNoticeProcessor(conn, { _, _ in }, nil)
        try configureSession()
    }

    deinit { PQfinish(handle) }

    /// The session settings every statement relies on: UTF-8 text, standard strings (the
    /// placeholder rewrite needs them), exact doubles, and the lock timeout.
    private func configureSession() throws(CatalogError) {
        guard PQsetClientEncoding(handle, "UTF8") == 0 else { throw connectionError("cannot set client encoding") }
        try execute(
            "SET standard_conforming_strings = on; SET extra_float_digits = 1; "
                + "SET lock_timeout = \(max(0, lockTimeoutMilliseconds))")
    }

    /// True while the connection is usable (false once the server or network dropped it).
    var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// The server process serving this connection.
    var backendPID: Int32 { PQbackendPID(handle) }

    /// Opens the connection again after it was lost (`PQreset`), with the same settings and
    /// `LISTEN`s. Any transaction that was open is gone.
    func reconnect() throws(CatalogError) {
        PQreset(handle)
        depth = 0
        statements.removeAll()
        guard PQstatus(handle) == CONNECTION_OK else {
            throw PostgresFailure.connectError(
                String(cString: PQerrorMessage(handle)), location: location, secrets: secrets)
        }
        try configureSession()
        for setting in sessionSettings { try execute(setting) }
        for channel in channels { try execute("LISTEN \(Self.quoteIdentifier(channel))") }
    }

    /// The error for a failure at the connection level, with libpq's current message.
    func connectionError(_ what: String) -> CatalogError {
        let detail = PostgresFailure.oneLine(String(cString: PQerrorMessage(handle)), secrets: secrets)
        let lost = PQstatus(handle) != CONNECTION_OK
        return .open(path: location, reason: lost ? "connection lost: \(detail)" : "\(what): \(detail)")
    }

    /// Throws when `text` holds a NUL character, which PostgreSQL's `text` cannot store.
    func refuseNUL(_ text: String) throws(CatalogError) {
        guard !text.utf8.contains(0) else {
            throw CatalogError.invalidRecord(
                path: location, reason: "text holds a nul character, which postgresql cannot store")
        }
    }

    /// Checks a result; returns it when it succeeded, else clears it and throws.
    func check(_ result: OpaquePointer?, _ sql: String) throws(CatalogError) -> PostgresResult {
        guard let result else { throw connectionError("no result") }
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK { return PostgresResult(handle: result) }
        defer { PQclear(result) }
        guard PQstatus(handle) == CONNECTION_OK else { throw connectionError("connection lost") }
        let field = PQresultErrorField(result, Int32(UInt8(ascii: "C")))
        let sqlstate = field.map { String(cString: $0) } ?? ""
        throw PostgresFailure.statementError(
            sqlstate: sqlstate, message: String(cString: PQresultErrorMessage(result)), sql: sql,
            location: location, secrets: secrets)
    }

    /// Runs one or more statements that take no parameters (simple query protocol).
    func execute(_ sql: String) throws(CatalogError) {
        _ = try check(PQexec(handle, sql), sql)
    }

    /// Runs one statement with `values` bound to its `?` parameters (the extended protocol,
    /// which takes one statement only, so no value can start a second one). A statement run
    /// before with the same parameter types goes as a prepared one (`PostgresStatementCache`).
    func exec(_ sql: String, _ values: [CatalogValue]) throws(CatalogError) -> PostgresResult {
        let (text, count) = PostgresPlaceholders.numbered(sql)
        guard count == values.count else {
            throw CatalogError.database(
                path: location, reason: "\(count) parameters but \(values.count) values (in \(sql.prefix(60)))")
        }
        var types: [Oid] = []
        var owned: [UnsafeMutablePointer<CChar>?] = []
        defer { owned.forEach { free($0) } }
        for value in values {
            switch value {
            case .null:
                // unknown: the server takes the column's type. A NULL used only in `? IS NULL`
                // has none to take: write `CAST(? AS TEXT) IS NULL` (valid SQLite as well).
                types.append(0)
                owned.append(nil)
            case .integer(let v):
                types.append(20)  // int8
                owned.append(strdup(String(v)))
            case .real(let v):
                types.append(701)  // float8
                owned.append(strdup(Self.text(of: v)))
            case .text(let v):
                try refuseNUL(v)
                types.append(25)  // text: `?1 IS NULL OR x = ?1` needs a declared type
                owned.append(strdup(v))
            }
        }
        let pointers = owned.map { UnsafePointer($0) }
        let key = PostgresStatementCache.Key(sql: text, types: types)
        if let name = try preparedName(key, sql) {
            return try check(PQexecPrepared(handle, name, Int32(values.count), pointers, nil, nil, 0), sql)
        }
        return try check(PQexecParams(handle, text, Int32(values.count), types, pointers, nil, nil, 0), sql)
    }

    /// The prepared statement to run `key` with: the one prepared before, one prepared now
    /// (the second time `key` is seen), or nil to send it whole. A failure to prepare is the
    /// statement's own error (the same the server gives when it is sent whole).
    private func preparedName(_ key: PostgresStatementCache.Key, _ sql: String) throws(CatalogError) -> String? {
        if let name = statements.name(for: key) { return name }
        guard statements.shouldPrepare(key) else { return nil }
        let name = statements.newName()
        _ = try check(PQprepare(handle, name, key.sql, Int32(key.types.count), key.types), sql)
        statements.add(key, name: name)
        return name
    }

    /// A double as PostgreSQL's float8 input reads it back exactly.
    static func text(of value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        return "\(value)"
    }

    /// Runs one statement; returns the rows it changed (inserted, updated or deleted).
    @discardableResult
    func run(_ sql: String, _ values: [CatalogValue]) throws(CatalogError) -> Int {
        try exec(sql, values).rowsChanged
    }

    /// Runs one query and maps every row.
    func query<T>(
        _ sql: String, _ values: [CatalogValue], _ map: (CatalogRow) throws(CatalogError) -> T
    ) throws(CatalogError) -> [T] {
        let result = try exec(sql, values)
        var rows: [T] = []
        rows.reserveCapacity(Int(result.rowCount))
        for row in 0..<result.rowCount { rows.append(try map(.postgres(PostgresRow(result: result, row: row)))) }
        return rows
    }

    /// The first row of a query, mapped, or nil if there is none.
    func queryFirst<T>(
        _ sql: String, _ values: [CatalogValue], _ map: (CatalogRow) throws(CatalogError) -> T
    ) throws(CatalogError) -> T? {
        let result = try exec(sql, values)
        guard result.rowCount > 0 else { return nil }
        return try map(.postgres(PostgresRow(result: result, row: 0)))
    }

    /// The value the last `INSERT` on this connection took from a sequence (`lastval()`, the
    /// nearest thing to SQLite's `last_insert_rowid`); `INSERT … RETURNING id` is better.
    func lastInsertRowID() throws(CatalogError) -> Int {
        try queryFirst("SELECT lastval()") { $0.int(0) } ?? 0
    }

    /// `INSERT … RETURNING id`: the new id in the same round trip.
    func insertReturningID(_ sql: String, _ values: [CatalogValue]) throws(CatalogError) -> Int {
        guard let id = try queryFirst(sql + " RETURNING id", values, { $0.int(0) }) else {
            throw CatalogError.database(path: location, reason: "insert returned no id (in \(sql.prefix(60)))")
        }
        return id
    }

    /// The insert with `ON CONFLICT DO NOTHING RETURNING id`: no row back when it conflicted.
    func insertUnlessConflicting(_ sql: String, _ values: [CatalogValue]) throws(CatalogError) -> Int? {
        try queryFirst(sql + " ON CONFLICT DO NOTHING RETURNING id", values) { $0.int(0) }
    }

    /// `BEGIN` (PostgreSQL has no `BEGIN IMMEDIATE`): a writer takes `writeLockKeys` in `mode`
    /// in the same round trip, a reader gets one snapshot (see `CatalogDialect.begin`).
    /// A connection found lost here (before or by the `BEGIN`) is reopened first, under
    /// `reconnection`: nothing has run in the transaction yet, so it can start afresh.
    func begin(write: Bool, mode: WriteLockMode) throws(CatalogError) {
        let sql = dialect.begin(write: write, mode: mode, keys: writeLockKeys)
        let wasConnected = isConnected && gaveUp == nil
        do throws(CatalogError) {
            guard wasConnected else { throw gaveUp ?? connectionError("connection lost") }
            try execute(sql)
            // The last transaction ran through without losing the connection: no outage.
            (outageStart, outageAttempts) = (nil, 0)
        } catch {
            guard !isConnected || gaveUp != nil else {
                // The BEGIN ran and the lock after it failed (lock_timeout): the transaction is
                // aborted and was never counted as open, so no one else would end it, and every
                // later transaction on this connection would fail.
                rollbackAll()
                throw error
            }
            try recover(after: error)
            do throws(CatalogError) {
                try execute(sql)
            } catch {
                rollbackAll()
                throw error
            }
        }
        heldMode = write ? mode : nil
    }

    /// Whether the connection is lost and `reconnection` will try to reopen it at the next
    /// `begin`: a worker's loop carries on after a failure then, rather than stopping.
    var willReconnect: Bool { !isConnected && reconnection != nil && gaveUp == nil }

    /// A savepoint; a write one inside a read transaction takes the write lock first, and an
    /// exclusive one inside a shared write transaction takes the exclusive lock as well (it
    /// waits for every other shared writer; two sessions doing so at once are a deadlock the
    /// server breaks by failing one). The lock is held until the outermost transaction ends.
    func beginSavepoint(_ name: String, write: Bool, mode: WriteLockMode) throws(CatalogError) {
        if write, let keys = writeLockKeys, heldMode == nil || (mode == .exclusive && heldMode != .exclusive) {
            try execute("SAVEPOINT \(name); " + CatalogDialect.writeLock(keys, mode: mode))
            if heldMode == nil || mode == .exclusive { heldMode = mode }
        } else {
            try execute("SAVEPOINT \(name)")
        }
    }

    /// A transaction that a failed statement aborted is rolled back, not committed, even when
    /// the block caught that error.
    func checkCommittable() throws(CatalogError) {
        if PQtransactionStatus(handle) == PQTRANS_INERROR {
            throw CatalogError.database(path: location, reason: "transaction rolled back: a statement in it failed")
        }
    }

    /// A lost connection has no transaction left, and a later COMMIT of an aborted one rolls
    /// back: a failure here leaves nothing more to do.
    func rollbackAll() {
        if PQtransactionStatus(handle) != PQTRANS_IDLE { PQclear(PQexec(handle, "ROLLBACK")) }
    }

    /// `name` as a double-quoted SQL identifier.
    static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
