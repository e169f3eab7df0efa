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
}

/// Writes a static HTML site of the catalog: `index.html` → `foods/index.html` (categories) →
/// `foods/category-<id>.html` → `foods/<id>.html`, and `bugs/index.html` (thumbnail, title and
/// rating strip per bug) → `bugs/<id>.html`. Every image is an `<img srcset>` of the built
/// outputs (@1x, @2x, @3x), links are relative, nothing needs JavaScript, and the site works
/// opened from disk.
///
/// The images are put in the site's `images/` folder under their output-folder paths, hard
/// linked when the two folders share a file system and copied otherwise, so the site stands
/// alone. Output names carry a content tag, so a file already there under its name is current.
/// Pages and images left from an earlier run that are no longer wanted are removed; nothing
/// else in the site folder is touched.
public struct SiteGenerator: Sendable {
    /// The catalog.
    public let store: CatalogStore
    /// The build's output folder (where the images are).
    public let outputDirectory: String

    public init(store: CatalogStore, outputDirectory: String) {
        self.store = store
        self.outputDirectory = outputDirectory
    }

    /// Writes the site into `siteDirectory` (created if needed).
    ///
    /// - Throws: a store error, or `CatalogError.io` when a page or image cannot be written.
    public func generate(into siteDirectory: String) throws -> SiteReport {
        let snapshot = try store.read { tx in
            SitePages.Snapshot(
                bugs: try tx.bugs(), foods: try tx.foods(), categories: try tx.categories(),
                outputs: Dictionary(grouping: try tx.outputs(), by: \.record))
        }
        let site = OutputFolder(root: siteDirectory)
        let source = OutputFolder(root: outputDirectory)
        var missing: [String] = []
        var usable = snapshot
        // Rows whose file is gone are left out (placeholders); the rest is linked in below.
        usable.outputs = snapshot.outputs.mapValues { rows in
            rows.filter { row in
                if source.fileSize(row.path) == row.bytes { return true }
                missing.append(source.absolute(row.path))
                return false
            }
        }
        let pages = SitePages(snapshot: usable).all()
        var wantedImages = Set<String>()
        for page in pages { wantedImages.formUnion(page.images) }

        try site.create()
        for relative in wantedImages.sorted() {
            try place(source.absolute(String(relative.dropFirst("images/".count))), at: site, relative)
        }
        try write(Array(HTML.styleSheet.utf8), to: site.absolute("style.css"))
        for page in pages { try write(Array(page.html.utf8), to: site.absolute(page.path)) }

        // Remove what an earlier run left: its images and pages that are not wanted now.
        let pagePaths = Set(pages.map(\.path))
        for relative in site.files(in: ["images"], includeHidden: false) where !wantedImages.contains(relative) {
            site.remove(relative)
        }
        for relative in site.files(in: ["bugs", "foods"], includeHidden: false)
        where relative.hasSuffix(".html") && !pagePaths.contains(relative) {
            site.remove(relative)
        }
        return SiteReport(
            index: site.absolute("index.html"), pages: pages.count, images: wantedImages.count,
            missing: missing.sorted())
    }

    /// Puts the output file `source` at `relative` in the site: a hard link, else a copy. A
    /// file already there with the same size is current (names carry a content tag).
    private func place(_ source: String, at site: OutputFolder, _ relative: String) throws {
        let target = site.absolute(relative)
        var from = stat()
        var to = stat()
        if stat(source, &from) == 0, stat(target, &to) == 0, from.st_size == to.st_size { return }
        let folder = (target as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CatalogError.io(path: folder, reason: "cannot create folder")
        }
        unlink(target)
        if link(source, target) == 0 { return }
        do {
            try FileIO.writeAtomically(try FileIO.read(source), to: target)
        } catch let error as DecodeError {
            throw CatalogError.io(path: source, reason: error.reason)
        } catch let error as EncodeError {
            throw CatalogError.io(path: target, reason: error.reason)
        }
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        do {
            try FileIO.writeAtomically(bytes, to: path)
        } catch {
            throw CatalogError.io(path: path, reason: error.reason)
        }
    }
}
