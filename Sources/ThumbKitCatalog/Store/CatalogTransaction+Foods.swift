// SPDX-License-Identifier: Apache-2.0
import Foundation

extension CatalogTransaction {
    // MARK: Categories

    /// Every category, in order.
    public func categories() throws(CatalogError) -> [FoodCategory] {
        try db.query("SELECT id, name, position FROM categories ORDER BY position, id") {
            FoodCategory(id: $0.int(0), name: $0.string(1), position: $0.int(2))
        }
    }

    /// The category named exactly `name`, or nil.
    public func category(named name: String) throws(CatalogError) -> FoodCategory? {
        try db.queryFirst("SELECT id, name, position FROM categories WHERE name = ?", [.text(name)]) {
            FoodCategory(id: $0.int(0), name: $0.string(1), position: $0.int(2))
        }
    }

    /// Adds a category at the end of the order, or returns the existing one of that name.
    ///
    /// - Throws: `CatalogError.invalidRecord` for an empty name.
    @discardableResult
    public func addCategory(_ name: String) throws(CatalogError) -> FoodCategory {
        try Self.checkName(name, field: "name", ref: "category '\(name)'")
        if let existing = try category(named: name) { return existing }
        let next = try db.queryFirst("SELECT COALESCE(MAX(position) + 1, 0) FROM categories") { $0.int(0) } ?? 0
        let id = try db.insert(into: "categories", id: nil, [("name", .text(name)), ("position", .integer(next))])
        return FoodCategory(id: id, name: name, position: next)
    }

    /// Puts the categories named in `names` first, in that order (adding any that are missing);
    /// the others follow in their old order. Positions end up 0…n−1.
    public func orderCategories(_ names: [String]) throws(CatalogError) {
        for name in names { try addCategory(name) }
        let listed = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let sorted = try categories().enumerated().sorted { a, b in
            (listed[a.element.name] ?? names.count + a.offset) < (listed[b.element.name] ?? names.count + b.offset)
        }
        for (position, entry) in sorted.enumerated() where entry.element.position != position {
            try db.run(
                "UPDATE categories SET position = ? WHERE id = ?", [.integer(position), .integer(entry.element.id)])
        }
    }

    /// Deletes an empty category. Returns whether it existed.
    ///
    /// - Throws: `CatalogError.constraint` when foods are still in it.
    @discardableResult
    public func deleteCategory(named name: String) throws(CatalogError) -> Bool {
        try db.run("DELETE FROM categories WHERE name = ?", [.text(name)]) > 0
    }

    // MARK: Foods

    static let foodColumns = """
        f.id, f.category_id, c.name, f.name, f.image_path, f.image_sha256, f.created_at, f.updated_at
        FROM foods f JOIN categories c ON c.id = f.category_id
        """

    func food(from row: CatalogRow) throws(CatalogError) -> Food {
        let id = row.int(0)
        let image = row.optionalString(4).map { ImageRef(path: $0, sha256: row.optionalString(5) ?? "") }
        return Food(
            id: id, categoryID: row.int(1), category: row.string(2), name: row.string(3), image: image,
            createdAt: try date(row.string(6), "food \(id)"), updatedAt: try date(row.string(7), "food \(id)"))
    }

    /// Every food, by category order then id.
    public func foods() throws(CatalogError) -> [Food] {
        try db.query("SELECT \(Self.foodColumns) ORDER BY c.position, c.id, f.id") { row throws(CatalogError) in
            try food(from: row)
        }
    }

    /// The food with row id `id`, or nil.
    public func food(id: Int) throws(CatalogError) -> Food? {
        try db.queryFirst("SELECT \(Self.foodColumns) WHERE f.id = ?", [.integer(id)]) { row throws(CatalogError) in
            try food(from: row)
        }
    }

    /// The foods whose row ids are in `ids` (those that exist), by id, in one query.
    func foods(ids: [Int]) throws(CatalogError) -> [Food] {
        try db.query(
            "SELECT \(Self.foodColumns) WHERE \(db.dialect.isOneOf("f.id")) ORDER BY f.id",
            [db.dialect.integerList(ids)]
        ) { row throws(CatalogError) in try food(from: row) }
    }

    /// The food named exactly `name` in the category named `category`, or nil.
    public func food(category: String, name: String) throws(CatalogError) -> Food? {
        try db.queryFirst(
            "SELECT \(Self.foodColumns) WHERE c.name = ? AND f.name = ?", [.text(category), .text(name)]
        ) { row throws(CatalogError) in try food(from: row) }
    }

    /// The food with row id `id`, or `CatalogError.notFound`.
    public func requireFood(id: Int) throws(CatalogError) -> Food {
        guard let found = try food(id: id) else {
            throw CatalogError.notFound(path: "food \(id)", reason: "no food with id \(id)")
        }
        return found
    }

    /// Adds a food to an existing category.
    ///
    /// - Parameters:
    ///   - id: A row id to use (an import restoring an export); nil picks the next free one.
    /// - Throws: `CatalogError.notFound` for an unknown category; `.invalidRecord` for an empty
    ///   name, a name the category already has, or a taken id.
    @discardableResult
    public func addFood(category: String, name: String, image: ImageRef?, id: Int? = nil) throws(CatalogError) -> Food {
        let ref = "food '\(category)/\(name)'"
        try Self.checkName(name, field: "name", ref: ref)
        guard let found = try self.category(named: category) else {
            throw CatalogError.notFound(path: ref, reason: "no category named '\(category)'")
        }
        return try addFood(in: found, name: name, image: image, id: id)
    }

    /// Adds a food to the category with row id `categoryID`.
    ///
    /// - Throws: `CatalogError.constraint` when no such category exists (the foreign key);
    ///   `.invalidRecord` as `addFood(category:name:image:id:)`.
    @discardableResult
    public func addFood(categoryID: Int, name: String, image: ImageRef?, id: Int? = nil) throws(CatalogError) -> Food {
        try requireFood(id: insertFood(categoryID: categoryID, name: name, image: image, id: id).id)
    }

    /// `addFood(in:name:image:id:)`, or nil (nothing written, the transaction still usable) when
    /// the category already has a food of this name: for a writer that takes a taken name as
    /// "update that food instead".
    package func addFoodUnlessTaken(in category: FoodCategory, name: String, image: ImageRef?) throws(CatalogError)
        -> Food?
    {
        guard let (newID, time) = try insertFoodUnlessTaken(categoryID: category.id, name: name, image: image, id: nil)
        else { return nil }
        let at = try date(time, "food \(newID)")
        return Food(
            id: newID, categoryID: category.id, category: category.name, name: name, image: image, createdAt: at,
            updatedAt: at)
    }

    /// Adds a food to `category` (as read in this transaction), returning what was written
    /// without reading it back.
    ///
    /// - Throws: as `addFood(categoryID:name:image:id:)`.
    @discardableResult
    public func addFood(in category: FoodCategory, name: String, image: ImageRef?, id: Int? = nil)
        throws(CatalogError) -> Food
    {
        let (newID, time) = try insertFood(categoryID: category.id, name: name, image: image, id: id)
        let at = try date(time, "food \(newID)")
        return Food(
            id: newID, categoryID: category.id, category: category.name, name: name, image: image, createdAt: at,
            updatedAt: at)
    }

    /// Inserts a food row; returns its id and the time written as both its created and
    /// updated time.
    private func insertFood(categoryID: Int, name: String, image: ImageRef?, id: Int?) throws(CatalogError) -> (
        id: Int, time: String
    ) {
        guard let inserted = try insertFoodUnlessTaken(categoryID: categoryID, name: name, image: image, id: id) else {
            throw CatalogError.invalidRecord(
                path: "food '\(name)'", reason: "its category already has a food with this name")
        }
        return inserted
    }

    /// `insertFood`, or nil (nothing written) when the category already has a food of this name.
    private func insertFoodUnlessTaken(categoryID: Int, name: String, image: ImageRef?, id: Int?) throws(CatalogError)
        -> (id: Int, time: String)?
    {
        let ref = "food '\(name)'"
        try Self.checkName(name, field: "name", ref: ref)
        if let id, try food(id: id) != nil {
            throw CatalogError.invalidRecord(path: ref, reason: "id \(id) is already taken")
        }
        let time = now
        // The name's uniqueness in its category is the insert's own conflict: no look-up first.
        guard
            let newID = try db.insertNew(
                into: "foods", id: id,
                [
                    ("category_id", .integer(categoryID)), ("name", .text(name)),
                    ("image_path", .optional(image?.path)), ("image_sha256", .optional(image?.sha256)),
                    ("created_at", .text(time)), ("updated_at", .text(time)),
                ])
        else { return nil }
        queuedWork()
        return (newID, time)
    }

    /// Sets (or with nil, clears) a food's image.
    @discardableResult
    public func setImage(foodID: Int, image: ImageRef?) throws(CatalogError) -> Food {
        let old = try requireFood(id: foodID)
        guard old.image != image else { return old }
        queuedWork()
        let time = now
        try db.run(
            "UPDATE foods SET image_path = ?, image_sha256 = ?, updated_at = ? WHERE id = ?",
            [.optional(image?.path), .optional(image?.sha256), .text(time), .integer(foodID)])
        // What was written, not read back.
        var new = old
        new.image = image
        new.updatedAt = try date(time, "food \(foodID)")
        return new
    }

    /// Deletes a food and its output rows (not the files). Returns whether it existed.
    @discardableResult
    public func deleteFood(id: Int) throws(CatalogError) -> Bool {
        try db.run("DELETE FROM foods WHERE id = ?", [.integer(id)]) > 0
    }
}
