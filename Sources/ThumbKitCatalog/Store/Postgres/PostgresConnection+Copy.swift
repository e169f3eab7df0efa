// SPDX-License-Identifier: Apache-2.0
import CPostgres

/// Rows appended with `COPY … FROM STDIN` (`PQputCopyData`): one statement for any number of
/// rows, streamed in data messages, with no parameters to bind and no `INSERT` to parse. The
/// table's triggers fire as for an `INSERT` (the statement-level ones once per `COPY`), and its
/// constraints hold: a row the table refuses fails the whole `COPY`, which adds none.
extension PostgresConnection {
    /// The rows of one `COPY` data message when the caller does not say: about 100 KiB of a
    /// catalog's rows, few enough messages that their cost is nothing, small enough that the
    /// buffer stays small.
    static let rowsPerCopyMessage = 1_000

    /// Appends `rows` (each with a value for every one of `columns`) to `table` with one
    /// `COPY`, sending `rowsPerMessage` rows per data message (nil: `rowsPerCopyMessage`).
    /// Table and column names are the caller's constants; values never become SQL text.
    ///
    /// - Throws: `.invalidRecord` for a text value holding a NUL character (the copy is
    ///   abandoned, so the transaction is aborted, as for a refused statement), the server's
    ///   error for a row the table refuses, or a connection error.
    func appendRows(to table: String, columns: [String], _ rows: [[CatalogValue]], rowsPerBatch: Int?)
        throws(CatalogError)
    {
        guard !rows.isEmpty else { return }
        let sql = "COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN"
        guard let started = PQexec(handle, sql) else { throw connectionError("no result") }
        guard PQresultStatus(started) == PGRES_COPY_IN else {
            // Not started (a missing table or column): the server's error, or what went wrong.
            _ = try check(started, sql)
            throw CatalogError.database(path: location, reason: "copy did not start (in \(sql.prefix(60)))")
        }
        PQclear(started)
        let perMessage = max(1, rowsPerBatch ?? Self.rowsPerCopyMessage)
        var stopped: CatalogError?
        do throws(CatalogError) {
            var buffer: [UInt8] = []
            for start in stride(from: 0, to: rows.count, by: perMessage) {
                buffer.removeAll(keepingCapacity: true)
                for row in rows[start..<min(start + perMessage, rows.count)] {
                    guard row.count == columns.count else {
                        throw CatalogError.database(
                            path: location, reason: "\(columns.count) columns but \(row.count) values (in \(sql))")
                    }
                    try PostgresCopyText.append(row, to: &buffer) { text throws(CatalogError) in try refuseNUL(text) }
                }
                let sent = buffer.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
                }
                guard sent == 1 else { throw connectionError("cannot send copy data") }
            }
        } catch {
            stopped = error
        }
        // Ending with an error message makes the server fail the COPY (and so the transaction).
        let ended = PQputCopyEnd(handle, stopped == nil ? nil : "thumbkit abandoned the copy")
        var failure: CatalogError?
        var finished = false
        while let next = PQgetResult(handle) {
            // Still in COPY IN (the end was not sent): libpq would return this result forever.
            guard PQresultStatus(next) != PGRES_COPY_IN else {
                PQclear(next)
                break
            }
            do throws(CatalogError) {
                _ = try check(next, sql)
                finished = true
            } catch {
                failure = failure ?? error
            }
        }
        if let stopped { throw stopped }
        if let failure { throw failure }
        guard ended == 1, finished else { throw connectionError("copy did not finish") }
    }
}
