// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKitDesktop

/// The cache's file names hang on the exact URI text, so it is checked against GLib itself.
struct FileURITests {
    /// Paths (as raw bytes) with every kind of byte a file name can hold.
    static let paths: [[UInt8]] = [
        Array("/tmp/plain.jpg".utf8),
        Array("/tmp/with space/a b.png".utf8),
        Array("/tmp/100% sure #1?.jpg".utf8),
        Array("/tmp/Ünïcødé/фото 写真.jpeg".utf8),
        Array("/tmp/!$&'()*+,-.:=@_~;[]{}^`|\\\"<>.png".utf8),
        Array("/tmp/".utf8) + [0xFF, 0xFE, 0x80, 0x20, 0x7F, 0x01] + Array(".png".utf8),  // not UTF-8
        Array("/tmp/".utf8) + Array(1...255).filter { $0 != UInt8(ascii: "/") },
    ]

    @Test(.needs(DesktopClients.glib), .tags(.realProcess)) func everyByteIsEscapedExactlyAsGLibDoes() throws {
        guard ToolRequirement.require([DesktopClients.glib]) else { return }
        // The paths go to Python as hex, so no byte is changed on the way.
        let program = """
            import sys, gi
            gi.require_version('GLib', '2.0')
            from gi.repository import GLib
            for h in sys.argv[1:]:
                print(GLib.filename_to_uri(bytes.fromhex(h), None))
            """
        let hex = Self.paths.map { $0.map { String(format: "%02x", $0) }.joined() }
        let out = try DesktopClients.python(program, hex)
        #expect(out.status == 0, "\(out.stderr)")
        let glib = out.stdout.split(separator: "\n").map(String.init)
        #expect(glib.count == Self.paths.count)
        for (path, expected) in zip(Self.paths, glib) {
            #expect(FileURI.uri(forAbsolutePath: path) == expected)
            #expect(FileURI.path(fromURI: expected) == path, "round trip of \(expected)")
        }
    }

    @Test func relativePathsAreMadeAbsoluteAndCleanedWithoutResolvingLinks() {
        #expect(
            FileURI.uri(forPath: "a/./b/../c d.jpg", relativeTo: "/home/me//pics")
                == "file:///home/me/pics/a/c%20d.jpg")
        #expect(FileURI.uri(forPath: "/x//y/", relativeTo: "/ignored") == "file:///x/y")
    }

    @Test func onlyLocalFileURIsHaveAPath() {
        #expect(FileURI.path(fromURI: "file:///a%20b") == Array("/a b".utf8))
        #expect(FileURI.path(fromURI: "file://localhost/a") == Array("/a".utf8))
        #expect(FileURI.path(fromURI: "http://example.com/a.png") == nil)
        #expect(FileURI.path(fromURI: "trash:///a.png") == nil)
        #expect(FileURI.path(fromURI: "file://otherhost/a.png") == nil)
        #expect(FileURI.path(fromURI: "file:///a%2") == nil)
        #expect(FileURI.path(fromURI: "file:///a%00b") == nil)
    }

    @Test func cacheNamesAreTheMD5OfTheURI() {
        // The standard's own example: file:///home/jens/photos/me.png.
        #expect(
            ThumbnailCache.fileName(forURI: "file:///home/jens/photos/me.png") == "c6ee772d9e49320e97ec29a7eb5b1697.png"
        )
        let cache = ThumbnailCache(root: "/c/thumbnails/", version: "9.9")
        #expect(cache.path(forURI: "file:///a", size: .xLarge).hasPrefix("/c/thumbnails/x-large/"))
        #expect(cache.failurePath(forURI: "file:///a").hasPrefix("/c/thumbnails/fail/thumbkit-9.9/"))
        #expect(ThumbnailCache.root(xdgCacheHome: "/x", home: "/h") == "/x/thumbnails")
        #expect(ThumbnailCache.root(xdgCacheHome: nil, home: "/h") == "/h/.cache/thumbnails")
        #expect(ThumbnailCache.root(xdgCacheHome: "", home: "/h") == "/h/.cache/thumbnails")
        #expect(ThumbnailCache.root(xdgCacheHome: "rel", home: "/h") == "/h/.cache/thumbnails")
        #expect(ThumbnailSize.allCases.map(\.pixels) == [128, 256, 512, 1024])
    }
}
