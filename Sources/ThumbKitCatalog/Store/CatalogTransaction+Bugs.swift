// SPDX-License-Identifier: Apache-2.0
import Foundation

extension CatalogTransaction {
    static let bugColumns = "id, title, rating, image_path, image_sha256, created_at, updated_at"

    func bug(from row: CatalogRow) throws(CatalogError) -> Bug {
        let id = row.int(0)
        let ref = "bug \(id)"
        guard let rating = Rating(exactly: row.double(2)) else {
            throw CatalogError.corrupt(path: connection.location, reason: "\(ref) has rating \(row.double(2))")
        }
        let image = row.optionalString(3).map { ImageRef(path: $0, sha256: row.optionalString(4) ?? "") }
        return Bug(
            id: id, title: row.string(1), rating: rating, image: image,
            createdAt: try date(row.string(5), ref), updatedAt: try date(row.string(6), ref))
    }

    /// Every bug, by id.
    public func bugs() throws(CatalogError) -> [Bug] {
        try db.query("SELECT \(Self.bugColumns) FROM bugs ORDER BY id") { row throws(CatalogError) in
            try bug(from: row)
        }
    }

    /// The bug with row id `id`, or nil.
    public func bug(id: Int) throws(CatalogError) -> Bug? {
        try db.queryFirst("SELECT \(Self.bugColumns) FROM bugs WHERE id = ?", [.integer(id)]) {
            row throws(CatalogError) in try bug(from: row)
        }
    }

    /// The bugs whose row ids are in `ids` (those that exist), by id, in one query.
    func bugs(ids: [Int]) throws(CatalogError) -> [Bug] {
        try db.query(
            "SELECT \(Self.bugColumns) FROM bugs WHERE \(db.dialect.isOneOf("id")) ORDER BY id",
            [db.dialect.integerList(ids)]
        ) { row throws(CatalogError) in try bug(from: row) }
    }

    /// The bug titled exactly `title`, or nil.
    public func bug(title: String) throws(CatalogError) -> Bug? {
        try db.queryFirst("SELECT \(Self.bugColumns) FROM bugs WHERE title = ?", [.text(title)]) {
            row throws(CatalogError) in try bug(from: row)
        }
    }

    /// The bug with row id `id`, or `CatalogError.notFound`.
    public func requireBug(id: Int) throws(CatalogError) -> Bug {
        guard let found = try bug(id: id) else {
            throw CatalogError.notFound(path: "bug \(id)", reason: "no bug with id \(id)")
        }
        return found
    }

    /// Adds a bug.
    ///
    /// - Parameters:
    ///   - id: A row id to use (an import restoring an export); nil picks the next free one.
    /// - Throws: `CatalogError.invalidRecord` for an empty title, a taken title or id.
    @discardableResult
    public func addBug(title: String, rating: Rating = .zero, image: ImageRef? = nil, id: Int? = nil)
        throws(CatalogError) -> Bug
    {
        guard let bug = try addBugUnlessTaken(title: title, rating: rating, image: image, id: id) else {
            throw CatalogError.invalidRecord(path: "bug '\(title)'", reason: "a bug with this title already exists")
        }
        return bug
    }

    /// `addBug`, or nil (nothing written, the transaction still usable) when a bug already has
    /// this title: for a writer that takes a taken title as "update that bug instead".
    package func addBugUnlessTaken(title: String, rating: Rating = .zero, image: ImageRef? = nil, id: Int? = nil)
        throws(CatalogError) -> Bug?
    {
        let ref = "bug '\(title)'"
        try Self.checkName(title, field: "title", ref: ref)
        if let id, try bug(id: id) != nil {
            throw CatalogError.invalidRecord(path: ref, reason: "id \(id) is already taken")
        }
        let time = now
        // The title's uniqueness is the insert's own conflict: no look-up first.
        guard
            let newID = try db.insertNew(
                into: "bugs", id: id,
                [
                    ("title", .text(title)), ("rating", .real(rating.value)), ("image_path", .optional(image?.path)),
                    ("image_sha256", .optional(image?.sha256)), ("created_at", .text(time)),
                    ("updated_at", .text(time)),
                ])
        else { return nil }
        queuedWork()
        // What was written, not read back: every column is known here.
        let at = try date(time, ref)
        return Bug(id: newID, title: title, rating: rating, image: image, createdAt: at, updatedAt: at)
    }

    /// Sets a bug's rating after checking it is 0 to 5 in steps of 0.5.
    ///
    /// - Throws: `CatalogError.invalidRecord` (`bug 3: rating 7 is not between 0 and 5 in steps
    ///   of 0.5`), or `.notFound`.
    @discardableResult
    public func rate(bugID: Int, rating: Double) throws(CatalogError) -> Bug {
        let valid = try Rating.validated(rating, for: "bug \(bugID)")
        return try updateBug(id: bugID) { $0.rating = valid }
    }

    /// Sets (or with nil, clears) a bug's image. The bug's outputs stay until a build replaces
    /// them: their source sha256 no longer matches.
    @discardableResult
    public func setImage(bugID: Int, image: ImageRef?) throws(CatalogError) -> Bug {
        try updateBug(id: bugID) { $0.image = image }
    }

    /// Changes a bug's title.
    ///
    /// - Throws: `CatalogError.invalidRecord` for an empty title or one another bug has.
    @discardableResult
    public func retitle(bugID: Int, title: String) throws(CatalogError) -> Bug {
        try Self.checkName(title, field: "title", ref: "bug \(bugID)")
        if let other = try bug(title: title), other.id != bugID {
            throw CatalogError.invalidRecord(path: "bug \(bugID)", reason: "bug \(other.id) already has this title")
        }
        return try updateBug(id: bugID) { $0.title = title }
    }

    /// Deletes a bug and its output rows (not the files). Returns whether it existed.
    @discardableResult
    public func deleteBug(id: Int) throws(CatalogError) -> Bool {
        try db.run("DELETE FROM bugs WHERE id = ?", [.integer(id)]) > 0
    }

    /// Applies `change`; writes (and bumps `updated_at`) only if a value actually changed.
    private func updateBug(id: Int, _ change: (inout Bug) -> Void) throws(CatalogError) -> Bug {
        let old = try requireBug(id: id)
        var new = old
        change(&new)
        guard new.title != old.title || new.rating != old.rating || new.image != old.image else { return old }
        queuedWork()
        let time = now
        try db.run(
            "UPDATE bugs SET title = ?, rating = ?, image_path = ?, image_sha256 = ?, updated_at = ? WHERE id = ?",
            [
                .text(new.title), .real(new.rating.value), .optional(new.image?.path), .optional(new.image?.sha256),
                .text(time), .integer(id),
            ])
        // What was written, not read back.
        new.updatedAt = try date(time, "bug \(id)")
        return new
    }

    /// Rejects an empty or all-whitespace title or name.
    static func checkName(_ name: String, field: String, ref: String) throws(CatalogError) {
        if name.allSatisfy({ $0.isWhitespace }) {
            throw CatalogError.invalidRecord(path: ref, reason: "\(field) is empty")
        }
    }
}
