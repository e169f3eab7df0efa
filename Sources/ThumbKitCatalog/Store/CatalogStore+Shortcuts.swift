// SPDX-License-Identifier: Apache-2.0
import Foundation

/// One-call versions of the common `CatalogTransaction` methods, each in its own transaction.
/// Use `read` / `write` to group several into one.
extension CatalogStore {
    /// Every bug, by id.
    public func bugs() throws -> [Bug] { try read { try $0.bugs() } }

    /// Every food, by category order then id.
    public func foods() throws -> [Food] { try read { try $0.foods() } }

    /// Every category, in order.
    public func categories() throws -> [FoodCategory] { try read { try $0.categories() } }

    /// The output rows of one record.
    public func outputs(for record: RecordRef) throws -> [OutputRecord] { try read { try $0.outputs(for: record) } }

    /// Counts, rating and output-size statistics.
    public func summary() throws -> CatalogSummary { try read { try $0.summary() } }

    /// The rating icons, logo and images folder.
    public func assets() throws -> CatalogAssets { try read { try $0.assets() } }

    /// Sets a bug's rating (validated: 0 to 5 in steps of 0.5).
    @discardableResult
    public func rate(bugID: Int, rating: Double) throws -> Bug {
        try write { try $0.rate(bugID: bugID, rating: rating) }
    }

    /// Sets a bug's image to the file at `path` (hashed first, outside the lock); nil clears it.
    @discardableResult
    public func setImage(bugID: Int, path: String?) throws -> Bug {
        let image = try path.map { path throws(CatalogError) in try ImageRef.load(path: path) }
        return try write { try $0.setImage(bugID: bugID, image: image) }
    }

    /// Sets a food's image to the file at `path` (hashed first, outside the lock); nil clears it.
    @discardableResult
    public func setImage(foodID: Int, path: String?) throws -> Food {
        let image = try path.map { path throws(CatalogError) in try ImageRef.load(path: path) }
        return try write { try $0.setImage(foodID: foodID, image: image) }
    }
}
