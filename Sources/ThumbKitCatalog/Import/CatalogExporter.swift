// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Writes the catalog as JSON (`CatalogDocument`): every category, bug and food with its id,
/// title or name exactly as stored, rating, category, image and outputs, plus the settings.
/// The result imports back into an empty catalog as the same records with the same ids.
public struct CatalogExporter: Sendable {
    /// The catalog to export.
    public let store: CatalogStore

    public init(store: CatalogStore) {
        self.store = store
    }

    /// The catalog as a document; image and asset paths inside `base` are made relative to it.
    public func document(relativeTo base: String) throws -> CatalogDocument {
        let base = PathResolution.standardize(base)
        func rel(_ path: String?) -> String? { path.map { PathResolution.relative($0, to: base) } }
        return try store.read { tx in
            var outputs: [RecordRef: [CatalogDocument.OutputEntry]] = [:]
            for row in try tx.outputs() {
                outputs[row.record, default: []].append(
                    CatalogDocument.OutputEntry(
                        path: row.path, width: row.width, height: row.height, scale: row.scale, kind: row.kind,
                        format: row.format.rawValue, bytes: row.bytes, recipe: row.recipe))
            }
            let assets = try tx.assets()
            let icons =
                assets.ratingEmpty == nil && assets.ratingHalf == nil && assets.ratingFull == nil
                ? nil
                : CatalogDocument.RatingIcons(
                    empty: rel(assets.ratingEmpty), half: rel(assets.ratingHalf), full: rel(assets.ratingFull))
            return CatalogDocument(
                version: 1,
                categories: try tx.categories().map(\.name),
                bugs: try tx.bugs().map { bug in
                    CatalogDocument.BugEntry(
                        id: bug.id, title: bug.title, rating: bug.rating, image: rel(bug.image?.path),
                        imageSHA256: bug.image?.sha256, outputs: outputs[bug.ref] ?? [])
                },
                foods: try tx.foods().map { food in
                    CatalogDocument.FoodEntry(
                        id: food.id, category: food.category, name: food.name, image: rel(food.image?.path),
                        imageSHA256: food.image?.sha256, outputs: outputs[food.ref] ?? [])
                },
                imagesDir: rel(assets.imagesDir), ratingIcons: icons, logo: rel(assets.logo))
        }
    }

    /// The document as pretty-printed JSON with sorted keys and unescaped slashes.
    public func data(relativeTo base: String) throws -> Data {
        try Self.encode(try document(relativeTo: base))
    }

    /// Writes the export to `path` (replacing it atomically); paths are relative to its folder.
    /// The catalog itself and its `-wal`, `-shm` and `-journal` files are refused, whatever
    /// path or link names them.
    ///
    /// - Throws: `CatalogError.invalidRecord` for an output that is a catalog file,
    ///   `CatalogError.io` when the file cannot be written, or a store error.
    public func export(to path: String) throws {
        if case .sqlite(let database) = store.location, let file = CatalogFiles.match(path, database: database) {
            throw CatalogError.invalidRecord(
                path: path, reason: "refusing to write the export over the catalog's own file \(file)")
        }
        let data = try data(relativeTo: PathResolution.folder(of: path))
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CatalogError.io(path: path, reason: "cannot write export file")
        }
    }

    /// JSON for a document: pretty-printed, sorted keys, `/` not escaped, newline at the end.
    public static func encode(_ document: CatalogDocument) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document) + Data("\n".utf8)
    }
}
