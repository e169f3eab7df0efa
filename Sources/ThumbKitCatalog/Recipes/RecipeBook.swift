// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The recipes a build makes, by name. `defaults` unless a `--recipes FILE` says otherwise.
///
/// ### File format
/// ```json
/// {
///   "replaceDefaults": false,
///   "recipes": [
///     {"name": "bug-list", "record": "bug", "kind": "list", "size": "44x44", "mode": "fill",
///      "scales": [1, 2, 3], "format": "jpeg", "quality": 85},
///     {"name": "food-hero", "record": "food", "kind": "detail", "size": "83.5x120", "mode": "fit"}
///   ],
///   "ratingStrip": {"iconSize": 20, "spacing": 4, "scales": [1, 2, 3], "background": "#00000000"}
/// }
/// ```
/// - `recipes` (required): each entry as in `Recipe`. `name` is 1–40 of `a-z 0-9 -`; `record` is
///   `bug`, `food` or `app`; `kind` is `list`, `detail`, `rating` or `icon`; `size` is
///   `<w>x<h>` in points (up to 3 decimals); `mode` is `fill` (default), `fit`, `pad` or
///   `stretch`; `scales` are 1–4 (default `[1, 2]`); `format` is `jpeg` (default), `png`,
///   `webp` or `avif`; `quality` is 1–100 (default 85; WebP 80, AVIF 55).
/// - A recipe named like a default replaces it; other names are added after the defaults.
/// - `replaceDefaults` (default false): when true, only the file's recipes are used.
/// - `ratingStrip` (optional, every key optional): the rating strips' icon size and spacing in
///   points, scales and background (`RatingStripStyle`); the base book's style otherwise.
/// - Unknown keys are ignored. A bad entry fails the whole file with its position:
///   `recipes.json: recipes[1]: quality 120 is not between 1 and 100`.
public struct RecipeBook: Sendable, Hashable {
    /// The recipes, in order.
    public let recipes: [Recipe]
    /// How rating strips are drawn.
    public let ratingStrip: RatingStripStyle

    /// A book of `recipes`, with rating strips drawn in `ratingStrip`.
    ///
    /// - Throws: `CatalogError.invalidRecord` when two recipes share a name.
    public init(recipes: [Recipe], ratingStrip: RatingStripStyle = .standard) throws(CatalogError) {
        var seen = Set<String>()
        for recipe in recipes where !seen.insert(recipe.name).inserted {
            throw CatalogError.invalidRecord(path: "recipe '\(recipe.name)'", reason: "two recipes have this name")
        }
        self.recipes = recipes
        self.ratingStrip = ratingStrip
    }

    /// The built-in recipes:
    /// - `bug-list`: 44×44 pt fill at @1x, @2x, @3x;
    /// - `bug-detail`: 320×320 pt fit at @1x, @2x;
    /// - `food-list`: 60×60 pt fill at @1x, @2x;
    /// - `food-detail`: 320×480 pt fit at @1x, @2x;
    /// all JPEG at quality 85.
    public static let defaults: RecipeBook = {
        do {
            return try RecipeBook(recipes: [
                Recipe(
                    name: "bug-list", recordKind: .bug, outputKind: .list, width: 44, height: 44, mode: .fill,
                    scales: [1, 2, 3]),
                Recipe(name: "bug-detail", recordKind: .bug, outputKind: .detail, width: 320, height: 320, mode: .fit),
                Recipe(name: "food-list", recordKind: .food, outputKind: .list, width: 60, height: 60, mode: .fill),
                Recipe(
                    name: "food-detail", recordKind: .food, outputKind: .detail, width: 320, height: 480, mode: .fit),
            ])
        } catch {
            fatalError("Built-in recipes are invalid: \(error)")  // Fixed values; a test checks them.
        }
    }()

    /// The recipes that apply to `kind`, in order.
    public func recipes(for kind: RecordKind) -> [Recipe] { recipes.filter { $0.recordKind == kind } }

    /// The recipe called `name`, or nil.
    public func recipe(named name: String) -> Recipe? { recipes.first { $0.name == name } }

    /// Loads a recipe file (format above), merged over `base`.
    ///
    /// - Throws: `CatalogError.io` when the file cannot be read; `.invalidDocument` naming the
    ///   bad entry otherwise.
    public static func load(path: String, over base: RecipeBook = .defaults) throws(CatalogError) -> RecipeBook {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CatalogError.io(path: path, reason: "cannot read recipe file")
        }
        return try decode(data, path: path, over: base)
    }

    /// Parses recipe-file JSON; `path` only names the file in errors.
    public static func decode(_ data: Data, path: String, over base: RecipeBook = .defaults) throws(CatalogError)
        -> RecipeBook
    {
        struct File: Decodable {
            var replaceDefaults: Bool?
            var recipes: [Lenient<Recipe>]
            var ratingStrip: RatingStripStyle?
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch let error as DecodingError {
            throw CatalogError.invalidDocument(path: path, reason: Lenient<File>.describe(error, droppingFirst: 0))
        } catch {
            throw CatalogError.invalidDocument(path: path, reason: "not valid JSON")
        }
        var merged = file.replaceDefaults == true ? [] : base.recipes
        var seen = Set<String>()
        for (index, entry) in file.recipes.enumerated() {
            switch entry.result {
            case .failure(let failure):
                throw CatalogError.invalidDocument(path: path, reason: "recipes[\(index)]: \(failure.reason)")
            case .success(let recipe):
                guard seen.insert(recipe.name).inserted else {
                    throw CatalogError.invalidDocument(
                        path: path, reason: "recipes[\(index)]: another recipe is already named '\(recipe.name)'")
                }
                if let existing = merged.firstIndex(where: { $0.name == recipe.name }) {
                    merged[existing] = recipe
                } else {
                    merged.append(recipe)
                }
            }
        }
        do {
            return try RecipeBook(recipes: merged, ratingStrip: file.ratingStrip ?? base.ratingStrip)
        } catch {
            throw CatalogError.invalidDocument(path: path, reason: error.description)
        }
    }
}
