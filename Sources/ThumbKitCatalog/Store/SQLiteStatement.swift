// SPDX-License-Identifier: Apache-2.0
import CSQLite

/// One compiled statement, finalized in `deinit`. Used only under its connection's lock; kept
/// between uses in the connection's `SQLiteStatementCache`, which the connection empties before
/// it closes (so `connection` is unowned: the cache must not keep its connection alive).
final class SQLiteStatement {
    let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Readies the statement for its next use: back to the start (`sqlite3_reset`, which ends
    /// any read it had open; its return repeats the last step's error, already thrown), and
    /// every parameter NULL again.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `values` to parameters 1…n. Text is bound with its exact UTF-8 length, so a string
    /// holding a NUL character round-trips.
    func bind(_ values: [CatalogValue]) throws(CatalogError) {
        // SQLITE_TRANSIENT: SQLite copies the bytes before bind returns.
        let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(handle, index)
            case .integer(let v): rc = sqlite3_bind_int64(handle, index, sqlite3_int64(v))
            case .real(let v): rc = sqlite3_bind_double(handle, index, v)
            case .text(let v):
                // A terminating NUL keeps the buffer non-empty (SQLite needs a non-null pointer
                // for an empty string, not NULL); the length passed excludes it.
                let bytes = Array(v.utf8) + [0]
                rc = bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) {
                        sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count - 1), transient)
                    }
                }
            }
            guard rc == SQLITE_OK else { throw connection.error(rc) }
        }
    }

    /// Steps once: true when a row is ready, false when done.
    func step() throws(CatalogError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(rc, sqlite3_sql(handle).map { String(cString: $0) })
        }
    }
}

/// Typed access to the current row of a statement.
package struct SQLiteRow {
    let handle: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }

    /// The column as text, read with its exact byte length (embedded NULs kept).
    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }

    /// The column with its storage class: INTEGER, REAL, TEXT (a BLOB as text), or NULL.
    func value(_ column: Int32) -> CatalogValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: .null
        case SQLITE_INTEGER: .integer(int(column))
        case SQLITE_FLOAT: .real(double(column))
        default: .text(string(column))
        }
    }
}
