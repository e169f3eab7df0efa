// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

/// `catalog:///` sources (`serve --catalog`): a record's picture as one of its recipes makes it.
///
///     catalog:///bugs/ID/{list|detail}[@2x|@3x]
///     catalog:///foods/ID/{list|detail}[@2x|@3x]
///
/// The record's source picture is rendered by the catalog's first recipe of that record and
/// output kind (its box, fit, format and quality) at the scale asked for, through the same
/// `ThumbnailPipeline` as every other image, so the bytes are those a build writes for that
/// recipe. An unknown record, kind, recipe or scale, or a record without a picture, is 404.
package struct CatalogImageSource: Sendable {
    /// One resolved source: the record's picture and the recipe that renders it.
    package struct Resolved: Sendable, Hashable {
        package var record: RecordRef
        /// The record's source picture (absolute path and content hash).
        package var image: ImageRef
        package var recipe: Recipe
        package var scale: Int

        /// The resize options of the recipe at the scale.
        package var resize: ResizeOptions { recipe.resizeOptions(scale: scale) }
        /// The key of what is rendered: the source's content, the recipe and the scale.
        package var identifier: String { "\(image.sha256)\n\(recipe.identifier)\n@\(scale)x" }
    }

    /// Why a catalog source cannot be served.
    package enum Failure: Error, Equatable, Sendable {
        /// No such record, kind, recipe or scale, or no picture (answer 404).
        case notFound(String)
        /// The catalog could not be read (answer 503).
        case unavailable(String)
    }

    /// The catalog.
    package let store: CatalogStore

    package init(store: CatalogStore) {
        self.store = store
    }

    /// The parts of a source path: (`bug`|`food`, id, `list`|`detail`, scale), or nil when the
    /// path does not have the form above.
    package static func parse(_ path: String) -> (kind: RecordKind, id: Int, output: OutputKind, scale: Int)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].isEmpty else { return nil }
        let kind: RecordKind
        switch parts[1] {
        case "bugs": kind = .bug
        case "foods": kind = .food
        default: return nil
        }
        guard parts[2].allSatisfy({ $0.isASCII && $0.isNumber }), parts[2].count <= 18, let id = Int(parts[2]), id >= 1
        else { return nil }
        var name = parts[3]
        var scale = 1
        if let at = name.firstIndex(of: "@") {
            switch name[at...] {
            case "@1x": scale = 1
            case "@2x": scale = 2
            case "@3x": scale = 3
            default: return nil
            }
            name = name[..<at]
        }
        let output: OutputKind
        switch name {
        case "list": output = .list
        case "detail": output = .detail
        default: return nil
        }
        return (kind, id, output, scale)
    }

    /// Finds the record, its picture and the recipe for `path` (a catalog source path).
    package func resolve(_ path: String) throws(Failure) -> Resolved {
        guard let parts = Self.parse(path) else {
            throw .notFound("expected catalog:///bugs/ID/{list|detail}[@2x|@3x] or catalog:///foods/ID/…")
        }
        let found: (ImageRef?, RecipeBook)?
        do {
            found = try store.read { tx -> (ImageRef?, RecipeBook)? in
                let book = try tx.recipeBook()
                switch parts.kind {
                case .bug: return try tx.bug(id: parts.id).map { ($0.image, book) }
                default: return try tx.food(id: parts.id).map { ($0.image, book) }
                }
            }
        } catch {
            throw .unavailable("the catalog cannot be read")
        }
        guard let (image, book) = found else { throw .notFound("no \(parts.kind.rawValue) \(parts.id)") }
        guard let image else { throw .notFound("\(parts.kind.rawValue) \(parts.id) has no picture") }
        guard
            let recipe = book.recipes(for: parts.kind).first(where: {
                $0.outputKind == parts.output && $0.scales.contains(parts.scale)
            })
        else {
            throw .notFound("no \(parts.output.rawValue) recipe at @\(parts.scale)x for \(parts.kind.rawValue)s")
        }
        return Resolved(
            record: RecordRef(kind: parts.kind, id: parts.id), image: image, recipe: recipe, scale: parts.scale)
    }

    /// Renders `resolved` within `limits` (a blocking call: run it on a render thread).
    package static func render(_ resolved: Resolved, limits: ImageLimits, deadline: Deadline) throws -> [UInt8] {
        let bytes = try FileIO.read(resolved.image.path, maxBytes: limits.maxFileBytes)
        let source = try ImageSource(bytes, path: resolved.image.path)
        let pipeline = ThumbnailPipeline(
            request: ThumbnailRequest(resize: resolved.resize, decode: DecodeOptions(limits: limits)),
            encoding: resolved.recipe.encodeOptions)
        return try pipeline.run(source, threads: 1, deadline: deadline).outputs[0].bytes
    }
}
