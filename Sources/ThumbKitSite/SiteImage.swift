// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog

/// One picture on the site: its files by scale (the first is @1x, or the smallest), its size in
/// CSS pixels, and the same picture in WebP or AVIF when recipes of the same kind and size make
/// those (shown through `<picture>`, with `files` as the fallback every browser can show).
package struct SiteImage: Sendable, Hashable {
    package struct File: Sendable, Hashable {
        /// Path relative to the site root (`images/bugs/1-potato-bug/bug-list.3fa9c2d1.jpg`).
        package let path: String
        package let scale: Int
    }

    /// The picture in a format a browser may not show: one `<source>`.
    struct Source: Sendable, Hashable {
        /// `image/avif` or `image/webp`.
        let mimeType: String
        let files: [File]
    }

    package let files: [File]
    package let width: Int
    package let height: Int
    /// AVIF first, then WebP: a browser takes the first it supports.
    private(set) var sources: [Source] = []

    /// Every file of the picture, the sources' too (the files the site must carry).
    var allFiles: [File] { files + sources.flatMap(\.files) }

    /// The picture of one recipe of a record, from its rows (any order); nil when there are none.
    init?(rows: [OutputRecord]) {
        let sorted = rows.sorted { $0.scale < $1.scale }
        guard let first = sorted.first else { return nil }
        files = sorted.map { File(path: "images/" + $0.path, scale: $0.scale) }
        width = max(1, Int((Double(first.width) / Double(first.scale)).rounded()))
        height = max(1, Int((Double(first.height) / Double(first.scale)).rounded()))
    }

    /// The formats that go in a `<source>`, in the order a browser should try them.
    static let modernFormats: [ImageFormat: String] = [.avif: "image/avif", .webp: "image/webp"]

    /// The picture of the first JPEG or PNG recipe among `rows` (one record's rows of one
    /// kind, in the catalog's order), with a `<source>` for each WebP or AVIF recipe of the
    /// same CSS size. Without a JPEG or PNG recipe the first modern one is the `<img>` itself
    /// (`hasFallback` is then false, and the site reports it). Nil when `rows` is empty.
    package init?(recipeRows rows: [OutputRecord]) {
        var order: [String] = []
        var byRecipe: [String: [OutputRecord]] = [:]
        for row in rows {
            if byRecipe[row.recipe] == nil { order.append(row.recipe) }
            byRecipe[row.recipe, default: []].append(row)
        }
        let isModern = { (recipe: String) in Self.modernFormats[byRecipe[recipe]![0].format] != nil }
        guard let main = order.first(where: { !isModern($0) }) ?? order.first,
            var picture = SiteImage(rows: byRecipe[main]!)
        else { return nil }
        guard !isModern(main) else {
            self = picture
            return
        }
        for format in [ImageFormat.avif, .webp] {
            for recipe in order where byRecipe[recipe]![0].format == format {
                guard let other = SiteImage(rows: byRecipe[recipe]!),
                    other.width == picture.width, other.height == picture.height
                else { continue }
                picture.sources.append(Source(mimeType: Self.modernFormats[format]!, files: other.files))
                break
            }
        }
        self = picture
    }

    /// Whether the `<img>` is a JPEG or PNG, which every browser shows.
    var hasFallback: Bool {
        guard let path = files.first?.path.lowercased() else { return false }
        return path.hasSuffix(".jpg") || path.hasSuffix(".jpeg") || path.hasSuffix(".png")
    }
}
