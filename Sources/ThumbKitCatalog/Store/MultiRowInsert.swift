// SPDX-License-Identifier: Apache-2.0
/// Many rows in multi-row `INSERT … VALUES (…), (…)` statements: how `appendRows` adds rows on
/// SQLite (PostgreSQL has its `COPY`, `PostgresConnection+Copy`). One statement per row cost
/// too much: `catalog copy` of 100,000 records and their 200,000 output rows took 820 s that
/// way to PostgreSQL.
enum MultiRowInsert {
    /// The rows one `INSERT` takes: at most 500, and at most 30,000 values (under SQLite's
    /// 32,766 and PostgreSQL's 65,535 parameters).
    static func rowsPerStatement(columns: Int) -> Int { max(1, min(500, 30_000 / max(1, columns))) }

    /// `rows` cut into slices of at most `rowsPerBatch` rows (nil: `rowsPerStatement`; a
    /// larger number is held to it), each small enough for one statement of `columns`
    /// parameters a row.
    static func slices<Row>(of rows: [Row], columns: Int, rowsPerBatch: Int? = nil) -> [ArraySlice<Row>] {
        let limit = rowsPerStatement(columns: columns)
        let perStatement = max(1, min(rowsPerBatch ?? limit, limit))
        return stride(from: 0, to: rows.count, by: perStatement).map {
            rows[$0..<min($0 + perStatement, rows.count)]
        }
    }

    /// `(?, ?, …)` with `count` parameters: a row of values, or an `IN` list.
    static func tuple(_ count: Int) -> String {
        "(" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
    }

    /// `INSERT INTO table (columns) VALUES (?, …), (?, …)…` for `rows` rows.
    static func statement(_ table: String, columns: [String], rows: Int) -> String {
        "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
            + Array(repeating: tuple(columns.count), count: rows).joined(separator: ", ")
    }
}

extension CatalogConnection {
    /// `appendRows` in `INSERT`s of `rowsPerBatch` rows (nil: `MultiRowInsert.rowsPerStatement`;
    /// a larger number is held to it, so no statement passes the parameter limits).
    func appendRows(to table: String, columns: [String], _ rows: [[CatalogValue]], rowsPerBatch: Int?)
        throws(CatalogError)
    {
        for batch in MultiRowInsert.slices(of: rows, columns: columns.count, rowsPerBatch: rowsPerBatch) {
            try run(MultiRowInsert.statement(table, columns: columns, rows: batch.count), Array(batch.joined()))
        }
    }
}
