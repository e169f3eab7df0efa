// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitDesktop

/// `--prune` deletes files: these tests try hard to make it delete something that is not a
/// stale cache entry.
struct CachePrunerTests {
    /// A PNG carrying `chunks`.
    static func png(_ chunks: PNGTextChunks) throws -> [UInt8] {
        try ImageEncoders.encodePNGRGBA(PixelBuffer(width: 2, height: 2), text: chunks)
    }

    @Test func removesOnlyStaleEntriesAndLeavesEveryOtherFileAlone() throws {
        let f = try DesktopFixture()
        defer { f.remove() }
        let keep = try f.write("keep.jpg", GeneratedImages.jpeg(seed: 1))
        let gone = try f.write("gone #1.jpg", GeneratedImages.jpeg(seed: 2))
        let changed = try f.write("changed.png", GeneratedImages.png(seed: 3))
        let broken = try f.write("broken.jpg", [0xFF, 0xD8, 0, 1])
        let brokenGone = try f.write("broken-gone.jpg", [0xFF, 0xD8, 0, 2])
        for path in [keep, gone, changed, broken, brokenGone] {
            _ = f.thumbnailer(ThumbnailSize.allCases).process(path)
        }
        func uri(_ path: String) -> String { FileURI.uri(forAbsolutePath: Array(path.utf8)) }
        let cache = f.cache
        let fm = FileManager.default

        // What must survive, whatever happens to the sources.
        var untouchable: [String: [UInt8]] = [:]
        func plant(_ path: String, _ bytes: [UInt8]) throws {
            try fm.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            untouchable[path] = bytes
        }
        let goneURI = uri(gone)
        let staleChunks = ThumbnailMetadata(uri: goneURI, mtime: 1).textChunks
        // A foreign PNG with no tEXt, under a cache-style name and under another name.
        let plainPNG = try ImageEncoders.encode(PixelBuffer(width: 2, height: 2), options: EncodeOptions(format: .png))
        try plant(cache.folder(for: .normal) + "/" + String(repeating: "a", count: 32) + ".png", plainPNG)
        try plant(cache.folder(for: .large) + "/wallpaper.png", plainPNG)
        // Another program's failure entry for a source that is gone.
        try plant(
            cache.root + "/fail/gnome-thumbnail-factory/" + ThumbnailCache.fileName(forURI: goneURI),
            try Self.png(staleChunks))
        // URIs that are not local files, under their own MD5 names.
        for other in ["http://example.com/gone.png", "trash:///gone.png", "file://remotehost/gone.png", "sftp://h/x"] {
            try plant(
                cache.folder(for: .normal) + "/" + ThumbnailCache.fileName(forURI: other),
                try Self.png(ThumbnailMetadata(uri: other, mtime: 1).textChunks))
        }
        // Stale chunks, but not at the MD5 name of their URI (a copy, a renamed file).
        try plant(
            cache.folder(for: .large) + "/" + String(repeating: "b", count: 32) + ".png", try Self.png(staleChunks))
        try plant(
            cache.folder(for: .large) + "/copy of " + ThumbnailCache.fileName(forURI: goneURI),
            try Self.png(staleChunks))
        // Stale chunks in a folder that is not a cache folder.
        try plant(cache.root + "/other/" + ThumbnailCache.fileName(forURI: goneURI), try Self.png(staleChunks))
        // Only a URI, no MTime.
        let noMTime = try f.write("nomtime.jpg", GeneratedImages.jpeg(seed: 9))
        try fm.removeItem(atPath: noMTime)
        try plant(
            cache.folder(for: .xLarge) + "/" + ThumbnailCache.fileName(forURI: uri(noMTime)),
            try Self.png(PNGTextChunks([.init("Thumb::URI", uri(noMTime))])))
        // A symlink in the cache pointing at a stale entry elsewhere, and at a precious file.
        let precious = f.root.path + "/precious.png"
        try plant(precious, try Self.png(staleChunks))
        let linkName = cache.folder(for: .xxLarge) + "/" + ThumbnailCache.fileName(forURI: goneURI)
        try fm.createDirectory(atPath: cache.folder(for: .xxLarge), withIntermediateDirectories: true)
        try? fm.removeItem(atPath: linkName)
        try fm.createSymbolicLink(atPath: linkName, withDestinationPath: precious)

        // Now make entries stale: a source removed, one modified, a failed one removed.
        try fm.removeItem(atPath: gone)
        try fm.removeItem(atPath: brokenGone)
        DesktopFixture.setMTime(changed, 1_234_567_890)

        var failures: [String] = []
        let removed = CachePruner(cache: cache).prune(failures: &failures)
        #expect(failures.isEmpty)
        let expected = Set(
            [ThumbnailSize.normal, .large, .xLarge].map { cache.path(forURI: goneURI, size: $0) }
                + ThumbnailSize.allCases.map { cache.path(forURI: uri(changed), size: $0) }
                + [cache.failurePath(forURI: uri(brokenGone))])
        #expect(Set(removed.map(\.path)) == expected)
        #expect(
            removed.first { $0.path.contains(ThumbnailCache.fileName(forURI: goneURI)) }?.reason == "source missing")
        for path in expected { #expect(!DesktopFixture.exists(path)) }
        for (path, bytes) in untouchable { #expect(DesktopFixture.bytes(path) == bytes, "\(path) must survive") }
        #expect(DesktopFixture.exists(linkName), "a symlink is not a cache entry")
        // Valid entries stay: the kept source's thumbnails and the broken file's failure entry.
        for size in ThumbnailSize.allCases { #expect(DesktopFixture.exists(cache.path(forURI: uri(keep), size: size))) }
        #expect(DesktopFixture.exists(cache.failurePath(forURI: uri(broken))))
        // A second prune finds nothing more.
        #expect(CachePruner(cache: cache).prune(failures: &failures).isEmpty)
    }

    @Test func anotherVersionsFailFolderIsNotPruned() throws {
        let f = try DesktopFixture()
        defer { f.remove() }
        let gone = try f.write("g.jpg", [0xFF, 0xD8, 0, 1])
        _ = DesktopThumbnailer(
            cache: ThumbnailCache(root: f.cache.root, version: "old"), sizes: [.normal], software: "t"
        )
        .process(gone)
        let oldEntry = ThumbnailCache(root: f.cache.root, version: "old").failurePath(
            forURI: FileURI.uri(forAbsolutePath: Array(gone.utf8)))
        #expect(DesktopFixture.exists(oldEntry))
        try FileManager.default.removeItem(atPath: gone)
        var failures: [String] = []
        #expect(CachePruner(cache: f.cache).prune(failures: &failures).isEmpty)
        #expect(DesktopFixture.exists(oldEntry))
    }
}
