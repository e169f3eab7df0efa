// SPDX-License-Identifier: Apache-2.0
import CPostgres

/// One query result, cleared in `deinit`. Lives no longer than the call that made it.
final class PostgresResult {
    let handle: OpaquePointer

    init(handle: OpaquePointer) { self.handle = handle }

    deinit { PQclear(handle) }

    /// The number of rows returned.
    var rowCount: Int32 { PQntuples(handle) }

    /// The rows an INSERT, UPDATE or DELETE changed (0 for other statements).
    var rowsChanged: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }
}

/// Typed access to one row of a result, with `SQLiteRow`'s accessors and the same answers:
/// NULL reads as 0, 0.0 or "", booleans as 1 and 0. Values arrive as text (libpq's text format).
package struct PostgresRow {
    let result: PostgresResult
    let row: Int32

    func isNull(_ column: Int32) -> Bool { PQgetisnull(result.handle, row, column) == 1 }

    /// The column's text as the server sent it ("" for NULL).
    func string(_ column: Int32) -> String {
        guard let value = PQgetvalue(result.handle, row, column) else { return "" }
        let count = Int(PQgetlength(result.handle, row, column))
        return value.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }

    func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }

    /// The column as an integer: booleans read as 1 and 0, a real is truncated, anything else
    /// that is not a number reads as 0 (as `sqlite3_column_int64` does).
    func int(_ column: Int32) -> Int {
        let text = string(column)
        if let value = Int(text) { return value }
        if text == "t" { return 1 }
        if let value = Double(text), value.isFinite, abs(value) < 9.2e18 { return Int(value) }
        return 0
    }

    /// The column as a double (PostgreSQL sends the shortest text that reads back exactly).
    func double(_ column: Int32) -> Double { Double(string(column)) ?? 0 }

    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }

    /// The column by its type: int2/int4/int8 and bool as integers, float4/float8/numeric as
    /// reals, anything else as text, or NULL.
    func value(_ column: Int32) -> CatalogValue {
        if isNull(column) { return .null }
        switch PQftype(result.handle, column) {
        case 16, 20, 21, 23: return .integer(int(column))
        case 700, 701, 1700: return .real(double(column))
        default: return .text(string(column))
        }
    }
}
