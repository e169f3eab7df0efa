// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

extension CatalogTransaction {
    private static let columns =
        "id, record_kind, record_id, recipe, kind, scale, path, width, height, format, bytes, source_sha256, created_at"
    private static let outputColumns = "\(columns) FROM outputs"

    private func output(from row: CatalogRow) throws(CatalogError) -> OutputRecord {
        let id = row.int(0)
        guard let recordKind = RecordKind(rawValue: row.string(1)), let kind = OutputKind(rawValue: row.string(4)),
            let format = ImageFormat(rawValue: row.string(9))
        else {
            throw CatalogError.corrupt(path: connection.location, reason: "output \(id) has an unknown kind or format")
        }
        let values = OutputValues(
            record: RecordRef(kind: recordKind, id: row.int(2)), recipe: row.string(3), kind: kind, scale: row.int(5),
            path: row.string(6), width: row.int(7), height: row.int(8), format: format, bytes: row.int(10),
            sourceSHA256: row.string(11))
        return OutputRecord(id: id, values: values, createdAt: try date(row.string(12), "output \(id)"))
    }

    /// Every output row, by record then recipe then scale.
    public func outputs() throws(CatalogError) -> [OutputRecord] {
        try db.query("SELECT \(Self.outputColumns) ORDER BY record_kind, record_id, recipe, scale") {
            row throws(CatalogError) in try output(from: row)
        }
    }

    /// The output rows of one record, by recipe then scale.
    public func outputs(for record: RecordRef) throws(CatalogError) -> [OutputRecord] {
        try db.query(
            "SELECT \(Self.outputColumns) WHERE record_kind = ? AND record_id = ? ORDER BY recipe, scale",
            [.text(record.kind.rawValue), .integer(record.id)]
        ) { row throws(CatalogError) in try output(from: row) }
    }

    /// The output rows of the records of one kind whose ids are in `ids`, by record, recipe
    /// and scale, in one query; with `app`, the app's rows too (a bug's rating rows point at
    /// the app's shared strips, so a build of bugs reads both), in the same query.
    func outputs(of kind: RecordKind, ids: [Int], app: Bool = false) throws(CatalogError) -> [OutputRecord] {
        let select = db.dialect.selectRows(
            Self.columns, from: "outputs", whereOneOf: "record_id", and: "record_kind IN (?, ?)")
        // Each id once: PostgreSQL's look-up per value would return a repeated id's rows twice.
        let wanted = Set(ids)
        let looked = app ? wanted.union([RecordRef.app.id]) : wanted
        let rows = try db.query(
            select + " ORDER BY record_kind, record_id, recipe, scale",
            [
                db.dialect.integerList(looked.sorted()), .text(kind.rawValue),
                .text((app ? RecordKind.app : kind).rawValue),
            ]
        ) { row throws(CatalogError) in try output(from: row) }
        // The two kinds' ids were looked up together: keep each kind's own.
        return rows.filter { $0.record == .app || wanted.contains($0.record.id) && $0.record.kind == kind }
    }

    /// The output row with this key, or nil.
    public func output(_ key: OutputKey) throws(CatalogError) -> OutputRecord? {
        try db.queryFirst(
            "SELECT \(Self.outputColumns) WHERE record_kind = ? AND record_id = ? AND recipe = ? AND scale = ?",
            [.text(key.record.kind.rawValue), .integer(key.record.id), .text(key.recipe), .integer(key.scale)]
        ) { row throws(CatalogError) in try output(from: row) }
    }

    /// Inserts the output row for `values.key`, or replaces the one already there (keeping its
    /// row id).
    ///
    /// - Throws: `CatalogError.invalidRecord` for a path that could leave the output folder, a
    ///   scale below 1, or a size below 1×1.
    @discardableResult
    public func upsertOutput(_ values: OutputValues) throws(CatalogError) -> OutputRecord {
        try checkOutput(values)
        let stamp = now
        // RETURNING rather than a read-back: one statement per row (the batch commit's count).
        let id = try db.queryFirst(
            Self.upsert(rows: 1) + " RETURNING id", Self.parameters(values, createdAt: stamp)
        ) { $0.int(0) }
        guard let id else {
            throw CatalogError.database(
                path: connection.location,
                reason: "\(values.record) output '\(values.path)' vanished after it was written")
        }
        return OutputRecord(id: id, values: values, createdAt: try date(stamp, "output \(id)"))
    }

    /// `upsertOutput` for each of `rows` (the rows of one record's build), in one statement: a
    /// record with a list and a detail recipe at two scales was four round trips on PostgreSQL.
    /// A key given twice is written once, with its last values, as one upsert after another
    /// would leave it (a multi-row upsert may not touch a row twice).
    ///
    /// - Throws: what `upsertOutput` throws, before anything is written.
    func upsertOutputs(_ rows: [OutputValues]) throws(CatalogError) {
        var last: [OutputKey: Int] = [:]
        for (index, values) in rows.enumerated() {
            try checkOutput(values)
            last[values.key] = index
        }
        let kept = rows.indices.filter { last[rows[$0].key] == $0 }.map { rows[$0] }
        let stamp = now
        for slice in MultiRowInsert.slices(of: kept, columns: Self.upsertColumns.count) {
            try db.run(Self.upsert(rows: slice.count), slice.flatMap { Self.parameters($0, createdAt: stamp) })
        }
    }

    /// Refuses output values no row may hold.
    private func checkOutput(_ values: OutputValues) throws(CatalogError) {
        let ref = "\(values.record) output '\(values.path)'"
        guard OutputNaming.isSafeRelativePath(values.path) else {
            throw CatalogError.invalidRecord(path: ref, reason: "path is not a safe path inside the output folder")
        }
        guard values.scale >= 1, values.width >= 1, values.height >= 1, values.bytes >= 0 else {
            throw CatalogError.invalidRecord(path: ref, reason: "scale, width and height must be at least 1")
        }
    }

    /// The columns an upsert writes, in the order of `parameters(_:createdAt:)`.
    private static let upsertColumns = [
        "record_kind", "record_id", "recipe", "kind", "scale", "path", "width", "height", "format", "bytes",
        "source_sha256", "created_at",
    ]

    /// The upsert of `rows` output rows (`parameters(_:createdAt:)` for each): a row already
    /// there for the key keeps its row id and takes the new values.
    private static func upsert(rows: Int) -> String {
        MultiRowInsert.statement("outputs", columns: upsertColumns, rows: rows)
            + """

            ON CONFLICT (record_kind, record_id, recipe, scale) DO UPDATE SET
                kind = excluded.kind, path = excluded.path, width = excluded.width, height = excluded.height,
                format = excluded.format, bytes = excluded.bytes, source_sha256 = excluded.source_sha256,
                created_at = excluded.created_at
            """
    }

    private static func parameters(_ values: OutputValues, createdAt stamp: String) -> [CatalogValue] {
        [
            .text(values.record.kind.rawValue), .integer(values.record.id), .text(values.recipe),
            .text(values.kind.rawValue), .integer(values.scale), .text(values.path), .integer(values.width),
            .integer(values.height), .text(values.format.rawValue), .integer(values.bytes),
            .text(values.sourceSHA256), .text(stamp),
        ]
    }

    /// Deletes the output row with this key. Returns whether it existed.
    @discardableResult
    public func deleteOutput(_ key: OutputKey) throws(CatalogError) -> Bool {
        try db.run(
            "DELETE FROM outputs WHERE record_kind = ? AND record_id = ? AND recipe = ? AND scale = ?",
            [.text(key.record.kind.rawValue), .integer(key.record.id), .text(key.recipe), .integer(key.scale)]) > 0
    }

    /// Deletes the record's output rows whose key is not in `keep` (outputs of recipes that no
    /// longer exist), and returns them so their files can be removed too.
    @discardableResult
    public func deleteOutputs(for record: RecordRef, keeping keep: Set<OutputKey> = []) throws(CatalogError)
        -> [OutputRecord]
    {
        let stale = try outputs(for: record).filter { !keep.contains($0.values.key) }
        try deleteOutputs(stale)
        return stale
    }

    /// Deletes these output rows (by row id).
    public func deleteOutputs(_ rows: [OutputRecord]) throws(CatalogError) {
        for row in rows { try db.run("DELETE FROM outputs WHERE id = ?", [.integer(row.id)]) }
    }
}
