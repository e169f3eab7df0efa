// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// What `SiteGenerator.generate` wrote.
public struct SiteReport: Sendable, Codable, Hashable {
    /// The site's front page.
    public var index: String
    /// HTML pages written.
    public var pages: Int
    /// Images in the site's `images/` folder.
    public var images: Int
    /// Output files the catalog lists but the output folder lacks (shown as placeholders).
    public var missing: [String]
    /// One line per failure (`<path>: <reason>`): an output row with an unsafe path, a file in
    /// the site folder that is not ThumbKit's where a page or image should go. Each was
    /// skipped; the rest of the site was written.
    public var problems: [String] = []
    /// One line per file ThumbKit wrote earlier but that was changed since, so it was kept
    /// although the site no longer uses it.
    public var kept: [String] = []
    /// One line per recipe whose WebP or AVIF pictures have no JPEG or PNG fallback.
    public var warnings: [String] = []
}

/// Writes a static HTML site of the catalog: `index.html` → `foods/index.html` (categories) →
/// `foods/category-<id>.html` → `foods/<id>.html`, and `bugs/index.html` (thumbnail, title and
/// rating strip per bug) → `bugs/<id>.html`. Every image is an `<img srcset>` of the built
/// outputs (@1x, @2x, @3x), inside a `<picture>` with WebP and AVIF `<source>`s when recipes of
/// the same kind and size make those; links are relative, and the site works opened from disk. A small
/// `site.js` shows dates and sizes in the reader's locale; without it they read in English.
///
/// The images are put in the site's `images/` folder under their output-folder paths, hard
/// linked when the two folders share a file system and copied otherwise, so the site stands
/// alone.
///
/// The site folder is ThumbKit's only as far as its manifest (`SiteManifest`) proves: a folder
/// that is neither empty nor has a manifest is refused unless `intoExisting`, and even then only
/// files the manifest lists, with unchanged content, are ever overwritten or removed. A foreign
/// file where a page or image should go is reported and left alone.
public struct SiteGenerator: Sendable {
    /// The catalog.
    public let store: CatalogStore
    /// The build's output folder (where the images are).
    public let outputDirectory: String
    /// Whether to write into a non-empty folder that has no site manifest.
    public let intoExisting: Bool

    /// A generator reading `store`'s outputs from `outputDirectory`.
    public init(store: CatalogStore, outputDirectory: String, intoExisting: Bool = false) {
        self.store = store
        self.outputDirectory = outputDirectory
        self.intoExisting = intoExisting
    }

    /// Writes the site into `siteDirectory` (created if needed).
    ///
    /// - Throws: a store error; `CatalogError.notFound` when the output folder does not exist or
    ///   holds none of the catalog's outputs; `CatalogError.io` when the site folder is not
    ///   empty and not a ThumbKit site (without `intoExisting`) or a file cannot be written;
    ///   `CatalogError.invalidDocument` when the site's manifest is not one.
    public func generate(into siteDirectory: String) throws -> SiteReport {
        let snapshot = try store.read { tx in
            SitePages.Snapshot(
                bugs: try tx.bugs(), foods: try tx.foods(), categories: try tx.categories(),
                outputs: Dictionary(grouping: try tx.outputs(), by: \.record))
        }
        let run = "run 'thumbkit build --out \(outputDirectory)' first"
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: outputDirectory, isDirectory: &isFolder), isFolder.boolValue,
            let sourceRoot = SiteFolder.resolved(outputDirectory)
        else { throw CatalogError.notFound(path: outputDirectory, reason: "no output folder here (\(run))") }
        let source = OutputFolder(root: outputDirectory)
        var missing: [String] = []
        var problems: [String] = []
        var usable = snapshot
        // Rows with an unsafe path are refused; rows whose file is gone are left out
        // (placeholders); the rest is linked in below.
        usable.outputs = snapshot.outputs.mapValues { rows in
            rows.filter { row in
                // A file that exists must resolve, symlinks followed, to inside the output folder.
                let real =
                    OutputNaming.isSafeRelativePath(row.path) ? SiteFolder.resolved(source.absolute(row.path)) : nil
                guard OutputNaming.isSafeRelativePath(row.path), real?.hasPrefix(sourceRoot + "/") ?? true else {
                    problems.append(
                        "\(Self.shown(row.path)): output row \(row.id) has an unsafe path (outside the output folder); skipped"
                    )
                    return false
                }
                if source.fileSize(row.path) == row.bytes { return true }
                missing.append(source.absolute(row.path))
                return false
            }
        }
        let rowCount = snapshot.outputs.values.reduce(0) { $0 + $1.count }
        let usableCount = usable.outputs.values.reduce(0) { $0 + $1.count }
        // Nothing built: outputs listed but none here, or pictures that were never built at all.
        let hasPictures = snapshot.bugs.contains { $0.image != nil } || snapshot.foods.contains { $0.image != nil }
        if usableCount == 0, !missing.isEmpty || (rowCount == 0 && hasPictures) {
            throw CatalogError.notFound(
                path: outputDirectory, reason: "none of the catalog's pictures is built here (\(run))")
        }
        var writer = try SiteWriter(root: siteDirectory, intoExisting: intoExisting)
        let sitePages = SitePages(snapshot: usable)
        let pages = sitePages.all()
        var wantedImages = Set<String>()
        for page in pages { wantedImages.formUnion(page.images) }
        let texts: [(String, [UInt8])] =
            [("style.css", Array(HTML.styleSheet.utf8)), (SiteText.scriptPath, Array(SiteText.script.utf8))]
            + pages.map { ($0.path, Array($0.html.utf8)) }
        var images: [(String, String)] = []
        for relative in wantedImages.sorted() {
            images.append((relative, source.absolute(String(relative.dropFirst("images/".count)))))
        }
        try writer.begin(texts: texts, images: images)
        for (relative, path) in images { writer.placeImage(relative, from: path) }
        for (relative, bytes) in texts { writer.writeText(relative, bytes) }
        try writer.finish()
        problems += writer.problems
        return SiteReport(
            index: writer.site.absolute("index.html"), pages: pages.count, images: wantedImages.count,
            missing: missing.sorted(), problems: problems, kept: writer.kept, warnings: sitePages.fallbackWarnings())
    }

    /// `path` with control characters and non-ASCII bytes escaped, for a message line.
    static func shown(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            if byte < 0x20 || byte == 0x7F || byte >= 0x80 || byte == UInt8(ascii: "\\") {
                out += String(format: "\\x%02x", byte)
            } else {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return out
    }
}
