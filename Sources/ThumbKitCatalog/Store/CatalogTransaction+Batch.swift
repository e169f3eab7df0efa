// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Many records read or added in a few statements: what `addBug` and `addFood` do one by one,
/// for `CatalogImporter`, which adds thousands per transaction (on PostgreSQL every statement is
/// a round trip to the server). Text is matched byte for byte, as `bug(title:)` and
/// `food(category:name:)` match it, so the callers key their lookups by `Array(text.utf8)`
/// (Swift's `==` on strings would take "é" and "e\u{301}" for one title).
extension CatalogTransaction {
    /// A bug for `addBugs`: `addBug`'s arguments.
    struct NewBug {
        let title: String
        let rating: Rating
        let image: ImageRef?
        /// The row id to use; nil picks the next free one.
        let id: Int?
    }

    /// A food for `addFoods`: `addFood(categoryID:…)`'s arguments.
    struct NewFood {
        let categoryID: Int
        let name: String
        let image: ImageRef?
        /// The row id to use; nil picks the next free one.
        let id: Int?
    }

    /// The bugs titled exactly one of `titles`, in no particular order.
    func bugs(titled titles: [String]) throws(CatalogError) -> [Bug] {
        try inChunks(titles.map(CatalogValue.text), "SELECT \(Self.bugColumns) FROM bugs WHERE title IN") {
            row throws(CatalogError) in try bug(from: row)
        }
    }

    /// Those of `ids` that are bug ids.
    func bugIDs(among ids: [Int]) throws(CatalogError) -> Set<Int> {
        Set(try inChunks(ids.map(CatalogValue.integer), "SELECT id FROM bugs WHERE id IN") { $0.int(0) })
    }

    /// The foods named exactly one of `names`, in any category, in no particular order.
    func foods(named names: [String]) throws(CatalogError) -> [Food] {
        try inChunks(names.map(CatalogValue.text), "SELECT \(Self.foodColumns) WHERE f.name IN") {
            row throws(CatalogError) in try food(from: row)
        }
    }

    /// Those of `ids` that are food ids.
    func foodIDs(among ids: [Int]) throws(CatalogError) -> Set<Int> {
        Set(try inChunks(ids.map(CatalogValue.integer), "SELECT id FROM foods WHERE id IN") { $0.int(0) })
    }

    /// Adds `bugs` in order, as `addBug` one by one would: the same rows and ids. The caller
    /// has checked what `addBug` checks against the catalog (no bug has the title or the id, and
    /// the titles differ); a title or id taken all the same fails the statement (the table's
    /// constraints), which adds none. Returns the new ids, in the order of `bugs`.
    func addBugs(_ bugs: [NewBug]) throws(CatalogError) -> [Int] {
        for bug in bugs { try Self.checkName(bug.title, field: "title", ref: "bug '\(bug.title)'") }
        let rows = bugs.map { bug in
            let time = now
            return NewRow(
                id: bug.id,
                values: [
                    .text(bug.title), .real(bug.rating.value), .optional(bug.image?.path),
                    .optional(bug.image?.sha256), .text(time), .text(time),
                ], key: Array(bug.title.utf8))
        }
        queuedWork()
        return try db.insertRows(
            into: "bugs", columns: ["title", "rating", "image_path", "image_sha256", "created_at", "updated_at"],
            rows, returning: "title"
        ) { Array($0.string(1).utf8) }
    }

    /// Adds `foods` in order, as `addFood(categoryID:…)` one by one would (see `addBugs`; the
    /// (category, name) pairs differ and none is in the catalog). Returns the new ids, in the
    /// order of `foods`.
    func addFoods(_ foods: [NewFood]) throws(CatalogError) -> [Int] {
        for food in foods { try Self.checkName(food.name, field: "name", ref: "food '\(food.name)'") }
        let rows = foods.map { food in
            let time = now
            return NewRow(
                id: food.id,
                values: [
                    .integer(food.categoryID), .text(food.name), .optional(food.image?.path),
                    .optional(food.image?.sha256), .text(time), .text(time),
                ], key: Self.foodKey(categoryID: food.categoryID, name: food.name))
        }
        queuedWork()
        return try db.insertRows(
            into: "foods", columns: ["category_id", "name", "image_path", "image_sha256", "created_at", "updated_at"],
            rows, returning: "category_id, name"
        ) { Self.foodKey(categoryID: $0.int(1), name: $0.string(2)) }
    }

    /// A food's (category id, name) as bytes: the id's digits, a NUL, the name's UTF-8.
    private static func foodKey(categoryID: Int, name: String) -> [UInt8] {
        Array(String(categoryID).utf8) + [0] + Array(name.utf8)
    }

    /// `select` (ending in `IN`) with `values` as its list, in chunks of at most the dialect's
    /// `parametersPerStatement`; every chunk's rows, mapped.
    private func inChunks<T>(
        _ values: [CatalogValue], _ select: String, _ map: (CatalogRow) throws(CatalogError) -> T
    ) throws(CatalogError) -> [T] {
        var rows: [T] = []
        let perStatement = db.dialect.parametersPerStatement
        for start in stride(from: 0, to: values.count, by: perStatement) {
            let chunk = Array(values[start..<min(start + perStatement, values.count)])
            rows += try db.query(select + " " + MultiRowInsert.tuple(chunk.count), chunk, map)
        }
        return rows
    }
}

/// One row for `CatalogConnection.insertRows`: its explicit id (nil: the next free one), its
/// values, and the bytes that name it among the rows of one call (its unique columns).
struct NewRow {
    let id: Int?
    let values: [CatalogValue]
    let key: [UInt8]
}

extension CatalogConnection {
    /// Inserts `rows` into `table` in order, as `insert(into:id:_:)` row by row would: the same
    /// ids (a run of rows with ids, then the dialect's follow-up once, which leaves PostgreSQL's
    /// identity where the row-by-row follow-ups would), in multi-row `INSERT … VALUES (…), (…)
    /// RETURNING id, <returning>` statements of at most the dialect's `parametersPerStatement`
    /// values. Every
    /// statement is all or nothing, so the caller runs this in a savepoint. `readKey` names a
    /// returned row as `NewRow.key` names the rows given (keys must differ). Returns the
    /// ids in the order of `rows`.
    func insertRows(
        into table: String, columns: [String], _ rows: [NewRow], returning: String,
        readKey: (CatalogRow) -> [UInt8]
    ) throws(CatalogError) -> [Int] {
        var ids: [[UInt8]: Int] = [:]
        var start = 0
        while start < rows.count {
            // A run of rows that all give an id, or all leave it to the database.
            let explicit = rows[start].id != nil
            var end = start
            while end < rows.count, (rows[end].id != nil) == explicit { end += 1 }
            let names = (explicit ? ["id"] : []) + columns
            let perStatement = max(1, dialect.parametersPerStatement / names.count)
            for chunkStart in stride(from: start, to: end, by: perStatement) {
                let chunk = rows[chunkStart..<min(chunkStart + perStatement, end)]
                let sql =
                    MultiRowInsert.statement(table, columns: names, rows: chunk.count) + " RETURNING id, \(returning)"
                let values = chunk.flatMap { row in (row.id.map { [CatalogValue.integer($0)] } ?? []) + row.values }
                for (key, id) in try query(sql, values, { (readKey($0), $0.int(0)) }) { ids[key] = id }
            }
            if explicit, let follow = dialect.afterExplicitID(table: table) { try run(follow) }
            start = end
        }
        var result: [Int] = []
        result.reserveCapacity(rows.count)
        for row in rows {
            guard let id = ids[row.key] else {
                throw CatalogError.database(path: location, reason: "an insert into \(table) returned no id for a row")
            }
            result.append(id)
        }
        return result
    }
}
