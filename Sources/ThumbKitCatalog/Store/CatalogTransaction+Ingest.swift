// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The watch folder's memory of the files it has seen.
extension CatalogTransaction {
    private static let columns = "id, path, sha256, record_kind, record_id, status, reason, processed_at"
    private static let ingestColumns = columns + " FROM ingested_files"

    private func ingested(from row: CatalogRow) throws(CatalogError) -> IngestedFile {
        let id = row.int(0)
        guard let status = IngestedFile.Status(rawValue: row.string(5)) else {
            throw CatalogError.corrupt(path: connection.location, reason: "ingested file \(id) has an unknown status")
        }
        let record = row.optionalString(3).flatMap(RecordKind.init(rawValue:)).map {
            RecordRef(kind: $0, id: row.int(4))
        }
        return IngestedFile(
            id: id, path: row.string(1), sha256: row.string(2), record: record, status: status, reason: row.string(6),
            processedAt: try date(row.string(7), "ingested file \(id)"))
    }

    /// Records what became of a file with this content; a second call for the same
    /// (path, sha256) replaces the first. One statement: the row comes back by `RETURNING`.
    @discardableResult
    public func recordIngest(
        path: String, sha256: String, record: RecordRef?, status: IngestedFile.Status, reason: String = ""
    ) throws(CatalogError) -> IngestedFile {
        let stored = try db.queryFirst(
            """
            INSERT INTO ingested_files (path, sha256, record_kind, record_id, status, reason, processed_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (path, sha256) DO UPDATE SET record_kind = excluded.record_kind,
                record_id = excluded.record_id, status = excluded.status, reason = excluded.reason,
                processed_at = excluded.processed_at
            RETURNING \(Self.columns)
            """,
            [
                .text(path), .text(sha256), .optional(record?.kind.rawValue), record.map { .integer($0.id) } ?? .null,
                .text(status.rawValue), .text(reason), .text(now),
            ]
        ) { row throws(CatalogError) in try ingested(from: row) }
        guard let stored else {
            throw CatalogError.database(
                path: connection.location, reason: "ingested file '\(path)' vanished after it was written")
        }
        return stored
    }

    /// What became of the file at `path` with this content, or nil if it was never seen.
    public func ingestedFile(path: String, sha256: String) throws(CatalogError) -> IngestedFile? {
        try db.queryFirst("SELECT \(Self.ingestColumns) WHERE path = ? AND sha256 = ?", [.text(path), .text(sha256)]) {
            row throws(CatalogError) in try ingested(from: row)
        }
    }

    /// Every file seen, optionally only those with `status`, oldest first.
    public func ingestedFiles(status: IngestedFile.Status? = nil) throws(CatalogError) -> [IngestedFile] {
        try db.query(
            // The CAST gives PostgreSQL a type for a NULL that is only tested (see PostgresConnection.exec).
            "SELECT \(Self.ingestColumns) WHERE (CAST(?1 AS TEXT) IS NULL OR status = ?1) ORDER BY processed_at, id",
            [.optional(status?.rawValue)]
        ) { row throws(CatalogError) in try ingested(from: row) }
    }
}
