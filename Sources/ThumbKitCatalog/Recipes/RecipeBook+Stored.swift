// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The recipe set a catalog remembers: the text of the last recipe file a build was given, kept
/// in the `recipes` setting, so that a later build without `--recipes` makes (and keeps) the
/// same outputs instead of sweeping them as unwanted. No setting means the built-in recipes.
extension CatalogTransaction {
    /// The settings key of the stored recipe file.
    static let recipesKey = "recipes"

    /// The recipe file text stored in the catalog, or nil when it uses the built-in recipes.
    public func storedRecipeFile() throws(CatalogError) -> String? { try setting(Self.recipesKey) }

    /// The recipe set builds of this catalog use: the stored file merged over the defaults, or
    /// `RecipeBook.defaults`.
    ///
    /// - Throws: `CatalogError.invalidDocument` when the stored text no longer parses.
    public func recipeBook() throws(CatalogError) -> RecipeBook {
        guard let text = try storedRecipeFile() else { return .defaults }
        return try RecipeBook.decode(Data(text.utf8), path: "\(db.location) (stored recipes)")
    }

    /// Stores `text` (a recipe file, already checked) as the catalog's recipe set, or with nil
    /// goes back to the built-in recipes.
    public func setRecipeFile(_ text: String?) throws(CatalogError) { try setSetting(Self.recipesKey, to: text) }
}

extension CatalogStore {
    /// The recipe set builds of this catalog use (see `CatalogTransaction.recipeBook()`).
    public func recipeBook() throws -> RecipeBook { try read { try $0.recipeBook() } }

    /// Reads and checks the recipe file at `path`, then stores it in the catalog (one
    /// transaction) so later builds use it until another is given. Returns the book.
    ///
    /// - Throws: `CatalogError.io` or `.invalidDocument` for a bad file (nothing is stored).
    @discardableResult
    public func useRecipeFile(at path: String) throws -> RecipeBook {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CatalogError.io(path: path, reason: "cannot read recipe file")
        }
        let book = try RecipeBook.decode(data, path: path)
        guard let text = String(data: data, encoding: .utf8) else {
            throw CatalogError.invalidDocument(path: path, reason: "not UTF-8 text")
        }
        try write { try $0.setRecipeFile(text) }
        return book
    }

    /// Goes back to the built-in recipes (removes the stored recipe file).
    @discardableResult
    public func useBuiltInRecipes() throws -> RecipeBook {
        try write { try $0.setRecipeFile(nil) }
        return .defaults
    }
}
