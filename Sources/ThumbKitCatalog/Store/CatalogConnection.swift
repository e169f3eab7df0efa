// SPDX-License-Identifier: Apache-2.0
/// The small interface the store works through, implemented by `SQLiteConnection` and
/// `PostgresConnection`: statements with `?` parameters, rows read by index, an insert that
/// returns the new row id, and transactions with nested savepoints. `CatalogTransaction` and
/// everything above it only see this, so they never know which backend they run on; the SQL
/// that differs between the two lives in `CatalogDialect` and the per-backend schema files.
///
/// Not Sendable: one owner uses a connection at a time (`GuardedConnection` holds a lock around
/// it). `package`: ThumbKitBench's history store works through the same interface.
package protocol CatalogConnection: AnyObject {
    /// Where the connection goes, for messages: the file path, or the redacted URL.
    var location: String { get }
    /// Which SQL this connection speaks.
    var dialect: CatalogDialect { get }
    /// How many `transaction` calls are open on this connection (0 outside any). Only
    /// `transaction` (and a reconnect, which loses the transaction) changes it.
    var depth: Int { get set }

    /// Runs one or more statements that take no parameters and return no rows.
    func execute(_ sql: String) throws(CatalogError)

    /// Runs one statement with `values` bound to its `?` parameters; returns the rows changed.
    @discardableResult
    func run(_ sql: String, _ values: [CatalogValue]) throws(CatalogError) -> Int

    /// Runs one query and maps every row.
    func query<T>(_ sql: String, _ values: [CatalogValue], _ map: (CatalogRow) throws(CatalogError) -> T)
        throws(CatalogError) -> [T]

    /// The first row of a query, mapped, or nil if there is none.
    func queryFirst<T>(_ sql: String, _ values: [CatalogValue], _ map: (CatalogRow) throws(CatalogError) -> T)
        throws(CatalogError) -> T?

    /// Runs one `INSERT` of one row into a table whose key is `id`; returns the row's id
    /// (SQLite: `last_insert_rowid()`, no second statement; PostgreSQL: `RETURNING id`).
    func insertReturningID(_ sql: String, _ values: [CatalogValue]) throws(CatalogError) -> Int

    /// `insertReturningID` with `ON CONFLICT DO NOTHING`: nil when a unique key of the table
    /// already has the row, and nothing was inserted (SQLite: the changes count, then
    /// `last_insert_rowid()`; PostgreSQL: `RETURNING id`). One statement either way.
    func insertUnlessConflicting(_ sql: String, _ values: [CatalogValue]) throws(CatalogError) -> Int?

    /// Appends `rows` (each with a value for every one of `columns`) to `table`, in order, in
    /// as few round trips as the backend allows: SQLite in multi-row `INSERT`s of
    /// `rowsPerBatch` rows (`CatalogConnection.insertRows(into:columns:_:rowsPerStatement:)`),
    /// PostgreSQL in one `COPY … FROM STDIN` of `rowsPerBatch` rows per data message. Nil
    /// takes the backend's own size; tests make it small to cross many batches. Table and
    /// column names are the caller's constants; every value is a parameter (or COPY data).
    /// Not all or nothing by itself: run it in a transaction.
    func appendRows(to table: String, columns: [String], _ rows: [[CatalogValue]], rowsPerBatch: Int?)
        throws(CatalogError)

    /// Starts the outermost transaction (a writer waits here for other writers, never later,
    /// holding the write lock in `mode`; see `WriteLockMode`).
    func begin(write: Bool, mode: WriteLockMode) throws(CatalogError)

    /// Starts savepoint `name` inside the open transaction; `write` when the block may write
    /// (in `mode`, which may take a stronger lock than the transaction holds).
    func beginSavepoint(_ name: String, write: Bool, mode: WriteLockMode) throws(CatalogError)

    /// Throws when the transaction must not be committed (PostgreSQL: a statement failed in
    /// it, so the server would only roll it back).
    func checkCommittable() throws(CatalogError)

    /// Rolls back the outermost transaction if one is open; a failure leaves nothing to do.
    func rollbackAll()
}

extension CatalogConnection {
    @discardableResult
    package func run(_ sql: String) throws(CatalogError) -> Int { try run(sql, []) }

    package func query<T>(_ sql: String, _ map: (CatalogRow) throws(CatalogError) -> T) throws(CatalogError) -> [T] {
        try query(sql, [], map)
    }

    package func queryFirst<T>(
        _ sql: String, _ map: (CatalogRow) throws(CatalogError) -> T
    ) throws(CatalogError) -> T? {
        try queryFirst(sql, [], map)
    }

    /// Inserts one row into `table` (whose key column is `id`) and returns its id. With `id`
    /// nil the database picks the next one; with an id (an import restoring an export) that id
    /// is used, and the dialect's follow-up keeps later picks above it (PostgreSQL's identity).
    /// Table and column names are the caller's constants; every value is a parameter.
    package func insert(into table: String, id: Int?, _ columns: [(String, CatalogValue)]) throws(CatalogError) -> Int {
        // `insertReturningID` always gives an id (or throws), so the result is never nil.
        try insertOne(into: table, id: id, columns) { sql, values throws(CatalogError) in
            try insertReturningID(sql, values)
        }!
    }

    /// `insert`, except that a row a unique key of `table` already has is not an error: nothing
    /// is inserted and the result is nil. One statement (`insertUnlessConflicting`), so a caller
    /// needs no look-up first, and a conflict leaves a PostgreSQL transaction usable.
    package func insertNew(into table: String, id: Int?, _ columns: [(String, CatalogValue)]) throws(CatalogError)
        -> Int?
    {
        try insertOne(into: table, id: id, columns) { sql, values throws(CatalogError) in
            try insertUnlessConflicting(sql, values)
        }
    }

    /// The one-row `INSERT` of `insert` and `insertNew`, run by `run`; when it inserted a row
    /// under an explicit `id`, the dialect's follow-up.
    private func insertOne(
        into table: String, id: Int?, _ columns: [(String, CatalogValue)],
        _ run: (String, [CatalogValue]) throws(CatalogError) -> Int?
    ) throws(CatalogError) -> Int? {
        let names = (id == nil ? [] : ["id"]) + columns.map(\.0)
        let values = (id.map { [CatalogValue.integer($0)] } ?? []) + columns.map(\.1)
        guard let newID = try run(MultiRowInsert.statement(table, columns: names, rows: 1), values) else { return nil }
        if id != nil, let follow = dialect.afterExplicitID(table: table) { try self.run(follow) }
        return newID
    }

    /// Runs `body` in a transaction: `begin(write:)` at the outermost level, a savepoint when
    /// nested. Commits (or releases the savepoint) when `body` returns, rolls back (to the
    /// savepoint) when it throws, and rethrows. The one implementation for both backends.
    ///
    /// A write transaction holds the write lock in `mode` (exclusive unless said otherwise).
    /// `observer` (a measuring seam, nil in production) is told how long an outermost write
    /// transaction waited in `begin`, and that it committed.
    package func transaction<T>(
        write: Bool, mode: WriteLockMode = .exclusive, observer: (any WriteTransactionObserver)? = nil,
        _ body: () throws -> T
    ) throws -> T {
        let savepoint = "tk_\(depth)"
        let observer = write && depth == 0 ? observer : nil
        if depth == 0 {
            let start = ContinuousClock.now
            try begin(write: write, mode: mode)
            observer?.writeLockTaken(after: ContinuousClock.now - start)
        } else {
            try beginSavepoint(savepoint, write: write, mode: mode)
        }
        depth += 1
        let result: T
        do {
            result = try body()
        } catch {
            depth -= 1
            rollback(savepoint: depth == 0 ? nil : savepoint)
            throw error
        }
        depth -= 1
        do {
            try checkCommittable()
            try execute(depth == 0 ? "COMMIT" : "RELEASE SAVEPOINT \(savepoint)")
        } catch {
            rollback(savepoint: depth == 0 ? nil : savepoint)
            throw error
        }
        observer?.writeCommitted()
        return result
    }

    /// Undoes the open transaction (or savepoint). A failure here leaves nothing more to do:
    /// SQLite has rolled back when ROLLBACK itself fails, a lost PostgreSQL connection has no
    /// transaction left, and a later COMMIT of an aborted one rolls back.
    private func rollback(savepoint: String?) {
        if let savepoint {
            try? execute("ROLLBACK TO SAVEPOINT \(savepoint); RELEASE SAVEPOINT \(savepoint)")
        } else {
            rollbackAll()
        }
    }
}
