// SPDX-License-Identifier: Apache-2.0
/// One result row, from either backend, with the same answers on both: NULL reads as 0, 0.0 or
/// "", and text keeps its exact bytes. A `query` map closure reads its columns by index.
///
/// An enum rather than a protocol: the closures that read rows take one concrete type, and a
/// switch over two cases costs SQLite nothing worth measuring (no boxing, no extra call).
package enum CatalogRow {
    case sqlite(SQLiteRow)
    case postgres(PostgresRow)

    package func isNull(_ column: Int32) -> Bool {
        switch self {
        case .sqlite(let row): row.isNull(column)
        case .postgres(let row): row.isNull(column)
        }
    }

    package func int(_ column: Int32) -> Int {
        switch self {
        case .sqlite(let row): row.int(column)
        case .postgres(let row): row.int(column)
        }
    }

    package func double(_ column: Int32) -> Double {
        switch self {
        case .sqlite(let row): row.double(column)
        case .postgres(let row): row.double(column)
        }
    }

    /// The column as text, with its exact bytes ("" for NULL).
    package func string(_ column: Int32) -> String {
        switch self {
        case .sqlite(let row): row.string(column)
        case .postgres(let row): row.string(column)
        }
    }

    package func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }

    package func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }

    /// The column as a value of its own type (for copying rows as they are): integers,
    /// reals, text, or NULL.
    package func value(_ column: Int32) -> CatalogValue {
        switch self {
        case .sqlite(let row): row.value(column)
        case .postgres(let row): row.value(column)
        }
    }
}
