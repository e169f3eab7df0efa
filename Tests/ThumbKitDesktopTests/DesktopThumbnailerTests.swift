// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitDesktop

/// The cache writer: layout, chunks, PNG form, permissions, incremental runs and failures.
struct DesktopThumbnailerTests {
    @Test func writesEveryRequestedSizeWithTheStandardsChunksAndPermissions() throws {
        let f = try DesktopFixture()
        defer { f.remove() }
        let path = try f.write("a b #1 100%.jpg", GeneratedImages.jpeg(width: 600, height: 300, seed: 1))
        DesktopFixture.setMTime(path, 1_600_000_123)
        let outcome = f.thumbnailer(ThumbnailSize.allCases).process(path)
        #expect(outcome == .written(ThumbnailSize.allCases))
        let uri = FileURI.uri(forAbsolutePath: Array(path.utf8))
        #expect(uri.contains("a%20b%20%231%20100%25.jpg"))
        for size in ThumbnailSize.allCases {
            let file = f.cache.path(forURI: uri, size: size)
            let bytes = try #require(DesktopFixture.bytes(file))
            let text = try PNGTextChunks.read(bytes, path: file)
            #expect(text["Thumb::URI"] == uri)
            #expect(text["Thumb::MTime"] == "1600000123")
            #expect(
                text["Thumb::Size"] == String(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int))
            #expect(text["Thumb::Mimetype"] == "image/jpeg")
            #expect(text["Thumb::Image::Width"] == "600" && text["Thumb::Image::Height"] == "300")
            #expect(text["Software"] == "thumbkit test")
            #expect(bytes[24] == 8 && bytes[25] == 6 && bytes[28] == 0, "8-bit RGBA, not interlaced")
            let decoded = try ImageDecoders.decode(bytes, path: file).buffer
            // Fit inside the box, never enlarged: 600×300 gives 128×64, 256×128, 512×256, 600×300.
            let width = min(size.pixels, 600)
            #expect(decoded.width == width && decoded.height == width / 2)
            #expect(DesktopFixture.mode(file) == 0o600)
            #expect(DesktopFixture.mode(f.cache.folder(for: size)) == 0o700)
        }
        #expect(DesktopFixture.mode(f.cache.root) == 0o700)
        // Nothing beside the source, and no temporary left in the cache.
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.sources) == ["a b #1 100%.jpg"])
        for size in ThumbnailSize.allCases {
            #expect(try FileManager.default.contentsOfDirectory(atPath: f.cache.folder(for: size)).count == 1)
        }
    }

    @Test func aValidThumbnailIsNotDecodedAgainAndAChangedMTimeIsRedone() throws {
        let f = try DesktopFixture()
        defer { f.remove() }
        let good = GeneratedImages.png(width: 300, height: 200, seed: 2)
        let path = try f.write("p.png", good)
        DesktopFixture.setMTime(path, 1_500_000_000)
        #expect(f.thumbnailer().process(path) == .written([.normal, .large]))
        // Same size and mtime but bytes that cannot decode: a decode would fail, so "up to date"
        // proves that nothing was decoded.
        try Data(repeating: 0x42, count: good.count).write(to: URL(fileURLWithPath: path))
        DesktopFixture.setMTime(path, 1_500_000_000)
        #expect(f.thumbnailer().process(path) == .upToDate)
        // Another mtime: the thumbnails are stale, the decode is attempted (and fails here).
        DesktopFixture.setMTime(path, 1_500_000_001)
        guard case .failed(let message, let entry) = f.thumbnailer().process(path) else {
            Issue.record("a stale thumbnail must be redone")
            return
        }
        #expect(message.hasPrefix(path + ": ") && entry)
        // A new size only decodes for that size.
        try Data(good).write(to: URL(fileURLWithPath: path))
        #expect(f.thumbnailer([.normal, .large, .xLarge]).process(path) == .written([.normal, .large, .xLarge]))
        #expect(f.thumbnailer([.normal, .large, .xxLarge]).process(path) == .written([.xxLarge]))
    }

    @Test func aFailureGetsAnEntryInItsOwnFailFolderAndIsSkippedUntilItsMTimeChanges() throws {
        let f = try DesktopFixture()
        defer { f.remove() }
        let path = try f.write("broken.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 1, 2, 3])
        DesktopFixture.setMTime(path, 1_400_000_000)
        guard case .failed(let message, true) = f.thumbnailer().process(path) else {
            Issue.record("a corrupt file fails with a failure entry")
            return
        }
        #expect(message.hasPrefix(path + ":") && !message.contains("\n"))
        let uri = FileURI.uri(forAbsolutePath: Array(path.utf8))
        let entry = f.cache.failurePath(forURI: uri)
        #expect(entry.contains("/fail/thumbkit-test/"))
        let meta = try #require(ThumbnailMetadata.read(at: entry))
        #expect(meta.uri == uri && meta.mtime == 1_400_000_000)
        #expect(DesktopFixture.mode(entry) == 0o600)
        #expect(!DesktopFixture.exists(f.cache.path(forURI: uri, size: .normal)))
        #expect(f.thumbnailer().process(path) == .knownFailure)
        try Data(GeneratedImages.jpeg(seed: 4)).write(to: URL(fileURLWithPath: path))
        DesktopFixture.setMTime(path, 1_400_000_050)
        #expect(f.thumbnailer().process(path) == .written([.normal, .large]))
    }

    @Test func aForeignFileAtTheCacheNameIsNeverOverwritten() throws {
        let f = try DesktopFixture()
        defer { f.remove() }
        let path = try f.write("x.png", GeneratedImages.png(seed: 5))
        let uri = FileURI.uri(forAbsolutePath: Array(path.utf8))
        let target = f.cache.path(forURI: uri, size: .normal)
        // A PNG without chunks, then one that is another file's thumbnail: both left alone.
        let foreign = try ImageEncoders.encode(PixelBuffer(width: 2, height: 2), options: EncodeOptions(format: .png))
        let other = try ImageEncoders.encodePNGRGBA(
            PixelBuffer(width: 2, height: 2),
            text: ThumbnailMetadata(uri: "file:///elsewhere.png", mtime: 1).textChunks)
        for bytes in [foreign, other, Array("not a png".utf8)] {
            try FileManager.default.createDirectory(
                atPath: f.cache.folder(for: .normal), withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: target))
            guard case .failed(let message, false) = f.thumbnailer([.normal]).process(path) else {
                Issue.record("a foreign file at the cache name must be reported")
                continue
            }
            #expect(message.contains("left alone"))
            #expect(DesktopFixture.bytes(target) == bytes)
        }
    }

    @Test func theURIIsThePathAsGivenAndTheDataComeThroughTheSymlink() throws {
        let f = try DesktopFixture()
        defer { f.remove() }
        let real = try f.write("real.jpg", GeneratedImages.jpeg(width: 90, height: 60, seed: 6))
        let link = f.sources + "/link.jpg"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        #expect(f.thumbnailer([.normal]).process("src/link.jpg") == .written([.normal]))
        let uri = FileURI.uri(forAbsolutePath: Array(link.utf8))
        let meta = try #require(ThumbnailMetadata.read(at: f.cache.path(forURI: uri, size: .normal)))
        #expect(meta.uri == uri)
        #expect(
            !DesktopFixture.exists(f.cache.path(forURI: FileURI.uri(forAbsolutePath: Array(real.utf8)), size: .normal)))
    }
}
