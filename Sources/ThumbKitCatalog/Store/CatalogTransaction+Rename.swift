// SPDX-License-Identifier: Apache-2.0
extension CatalogTransaction {
    /// Changes a food's name (within its category).
    ///
    /// - Throws: `CatalogError.notFound` for an unknown food; `.invalidRecord` for an empty name
    ///   or one another food of the same category has.
    @discardableResult
    public func rename(foodID: Int, name: String) throws(CatalogError) -> Food {
        let old = try requireFood(id: foodID)
        try Self.checkName(name, field: "name", ref: "food \(foodID)")
        guard old.name != name else { return old }
        if let other = try food(category: old.category, name: name), other.id != foodID {
            throw CatalogError.invalidRecord(
                path: "food \(foodID)", reason: "food \(other.id) in '\(old.category)' already has this name")
        }
        queuedWork()
        try db.run(
            "UPDATE foods SET name = ?, updated_at = ? WHERE id = ?", [.text(name), .text(now), .integer(foodID)])
        return try requireFood(id: foodID)
    }
}
