// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitDesktop

/// The desktop's own code judges the cache `thumbkit xdg` writes: GIO (`gio info`) and
/// gnome-desktop's thumbnail factory, over every photo and icon of the shared corpus, copied
/// under names with spaces, `#`, `%` and non-ASCII letters.
@Suite(.serialized)
struct GIOClientTests {
    /// The corpus photos and icons that must decode, copied into `dir` under awkward names;
    /// returns the copies' paths.
    static func corpusCopies(in dir: String) throws -> [String] {
        let rows = TestCorpus.rows {
            ($0.path.hasPrefix("photos/") || $0.path.hasPrefix("icons/")) && $0.expected == .decode
        }
        let names = ["été #1", "a b", "100% fun", "фото", "plain"]
        var copies: [String] = []
        for (i, row) in rows.enumerated() {
            let ext = (row.path as NSString).pathExtension
            let folder = dir + "/" + (i % 2 == 0 ? "Fotos #2 ünï" : "with 50% space")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = folder + "/\(names[i % names.count]) \(i).\(ext)"
            try FileManager.default.copyItem(atPath: TestCorpus.url(for: row).path, toPath: path)
            copies.append(path)
        }
        return copies
    }

    /// Parses `gio info -a …` output for many files: uri → attributes (`thumbnail::path`,
    /// `standard::content-type`, …).
    static func parseGIO(_ text: String) -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        var current: String?
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("uri: ") {
                current = String(line.dropFirst(5))
                result[current!] = [:]
            } else if let current, line.hasPrefix("  "), line.contains("::"), let colon = line.range(of: ": ") {
                let key = String(line[line.index(line.startIndex, offsetBy: 2)..<colon.lowerBound])
                result[current]![key] = String(line[colon.upperBound...])
            }
        }
        return result
    }

    @Test(
        .needsCorpus, .needs(DesktopClients.gioTool, DesktopClients.gnomeDesktop), .tags(.corpus, .realProcess))
    func gioAndGnomeDesktopFindValidThumbnailsForEveryCorpusImageAndSize() throws {
        guard TestCorpus.requireCorpus(),
            ToolRequirement.require([DesktopClients.gioTool, DesktopClients.gnomeDesktop])
        else { return }
        let f = try DesktopFixture("tk-gio")
        defer { f.remove() }
        let files = try Self.corpusCopies(in: f.sources)
        #expect(files.count >= 20)
        // One run makes every size (one decode per file) into a private cache.
        let all = f.root.path + "/all"
        let run = try TestBinary.run(
            ["xdg", "-j", "2"] + ThumbnailSize.allCases.flatMap { ["--size", $0.rawValue] } + [f.sources, "-r"],
            environment: ["XDG_CACHE_HOME": all, "HOME": f.root.path])
        #expect(run.status == 0, "\(run.stderr)")
        let allCache = ThumbnailCache(root: all + "/thumbnails", version: "unused")
        let uris = files.map { FileURI.uri(forAbsolutePath: Array($0.utf8)) }

        for size in ThumbnailSize.allCases {
            // A cache holding only this size, so GIO can only report this size's file.
            let home = f.root.path + "/only-" + size.rawValue
            let cache = ThumbnailCache(root: home + "/thumbnails", version: "unused")
            try FileManager.default.createDirectory(atPath: cache.root, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: allCache.folder(for: size), toPath: cache.folder(for: size))
            let env = ["XDG_CACHE_HOME": home]
            let out = try DesktopClients.run(
                DesktopClients.gio!, ["info", "-a", "thumbnail::*"] + files, environment: env)
            #expect(out.status == 0, "\(out.stderr)")
            let info = Self.parseGIO(out.stdout)
            for uri in uris {
                let attributes = info[uri] ?? [:]
                #expect(attributes["thumbnail::path"] == cache.path(forURI: uri, size: size), "\(size) \(uri)")
                #expect(attributes["thumbnail::is-valid"] == "TRUE", "\(size) \(uri): \(attributes)")
            }
            try checkGnomeDesktop(files: files, uris: uris, size: size, cache: cache, environment: env)
        }

        // After touch, neither client accepts the thumbnails.
        let touched = Array(files.prefix(3))
        for path in touched { DesktopFixture.setMTime(path, Int(Date().timeIntervalSince1970) + 100) }
        let home = f.root.path + "/only-normal"
        let out = try DesktopClients.run(
            DesktopClients.gio!, ["info", "-a", "thumbnail::*"] + touched, environment: ["XDG_CACHE_HOME": home])
        let info = Self.parseGIO(out.stdout)
        for path in touched {
            let uri = FileURI.uri(forAbsolutePath: Array(path.utf8))
            #expect(info[uri]?["thumbnail::is-valid"] != "TRUE", "after touch \(uri): \(info[uri] ?? [:])")
        }
        let lookup = try gnomeLookup(touched, size: .normal, environment: ["XDG_CACHE_HOME": home])
        #expect(lookup.allSatisfy { $0 == "None" }, "\(lookup)")
    }

    /// What `DesktopThumbnailFactory.new(size).lookup(uri, mtime)` returns for each file.
    func gnomeLookup(_ files: [String], size: ThumbnailSize, environment: [String: String]) throws -> [String] {
        let program = """
            import os, sys, gi
            gi.require_version('GnomeDesktop', '3.0')
            from gi.repository import GnomeDesktop, GLib
            size = getattr(GnomeDesktop.DesktopThumbnailSize, sys.argv[1])
            factory = GnomeDesktop.DesktopThumbnailFactory.new(size)
            for path in sys.argv[2:]:
                uri = GLib.filename_to_uri(os.fsencode(path), None)
                print(factory.lookup(uri, int(os.stat(path).st_mtime)))
            """
        let name = ["normal": "NORMAL", "large": "LARGE", "x-large": "XLARGE", "xx-large": "XXLARGE"][size.rawValue]!
        let out = try DesktopClients.python(program, [name] + files, environment: environment)
        #expect(out.status == 0, "\(out.stderr)")
        return out.stdout.split(separator: "\n").map(String.init)
    }

    func checkGnomeDesktop(
        files: [String], uris: [String], size: ThumbnailSize, cache: ThumbnailCache, environment: [String: String]
    ) throws {
        let found = try gnomeLookup(files, size: size, environment: environment)
        #expect(found == uris.map { cache.path(forURI: $0, size: size) }, "gnome-desktop \(size)")
    }

    @Test(.needs(DesktopClients.gioTool), .tags(.realProcess)) func gioLooksUpASymlinkByItsOwnPathAsXDGWritesIt() throws
    {
        guard ToolRequirement.require([DesktopClients.gioTool]) else { return }
        let f = try DesktopFixture("tk-gio-link")
        defer { f.remove() }
        let real = try f.write("real é.jpg", GeneratedImages.jpeg(width: 300, height: 200, seed: 7))
        let link = f.sources + "/link #1.jpg"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real é.jpg")
        let run = try TestBinary.run(
            ["xdg", "--size", "normal", link], environment: ["XDG_CACHE_HOME": f.cacheHome, "HOME": f.root.path])
        #expect(run.status == 0, "\(run.stderr)")
        let out = try DesktopClients.run(
            DesktopClients.gio!, ["info", "-a", "thumbnail::*", link, real],
            environment: ["XDG_CACHE_HOME": f.cacheHome])
        let info = Self.parseGIO(out.stdout)
        let linkURI = FileURI.uri(forAbsolutePath: Array(link.utf8))
        #expect(info[linkURI]?["thumbnail::path"] == f.cache.path(forURI: linkURI, size: .normal), "\(out.stdout)")
        #expect(info[linkURI]?["thumbnail::is-valid"] == "TRUE")
        // The target itself was not thumbnailed: the URI is the path as given.
        #expect(info[FileURI.uri(forAbsolutePath: Array(real.utf8))]?["thumbnail::path"] == nil)
    }

    /// WebP, HEIC and AVIF sources: GIO finds `xdg`'s thumbnails of them valid, and each one's
    /// `Thumb::Mimetype` is the content type GIO itself gives the source (issue 27, item 10).
    @Test(.needs([DesktopClients.gioTool, ToolRequirement.program("heif-enc")]), .tags(.realProcess))
    func gioFindsValidThumbnailsOfModernSourcesLabelledWithTheirContentType() throws {
        guard ToolRequirement.require([DesktopClients.gioTool, ToolRequirement.program("heif-enc")]) else { return }
        let f = try DesktopFixture("tk-gio-modern")
        defer { f.remove() }
        let image = GeneratedImages.pixels(width: 300, height: 200, seed: 8)
        let png = f.root.path + "/source.png"
        try Data(try ImageEncoders.encode(image, options: EncodeOptions(format: .png))).write(
            to: URL(fileURLWithPath: png))
        var files = [
            try f.write("w #1.webp", ImageEncoders.encode(image, options: EncodeOptions(format: .webp))),
            try f.write("a é.avif", ImageEncoders.encode(image, options: EncodeOptions(format: .avif, avifSpeed: 9))),
        ]
        files.append(f.sources + "/h 100%.heic")
        try CodecTools.mustRun("heif-enc", ["-q", "50", png, "-o", files[2]])
        let run = try TestBinary.run(
            ["xdg", "--size", "normal"] + files, environment: ["XDG_CACHE_HOME": f.cacheHome, "HOME": f.root.path])
        #expect(run.status == 0, "\(run.stderr)")
        let out = try DesktopClients.run(
            DesktopClients.gio!, ["info", "-a", "thumbnail::*,standard::content-type"] + files,
            environment: ["XDG_CACHE_HOME": f.cacheHome])
        let info = Self.parseGIO(out.stdout)
        var types: [String] = []
        for path in files {
            let uri = FileURI.uri(forAbsolutePath: Array(path.utf8))
            let attributes = info[uri] ?? [:]
            #expect(attributes["thumbnail::is-valid"] == "TRUE", "\(uri): \(attributes)")
            let thumbnail = f.cache.path(forURI: uri, size: .normal)
            let text = try PNGTextChunks.read(try #require(DesktopFixture.bytes(thumbnail)), path: thumbnail)
            #expect(text["Thumb::Mimetype"] == attributes["standard::content-type"], "\(uri)")
            types.append(text["Thumb::Mimetype"] ?? "")
        }
        #expect(types == ["image/webp", "image/avif", "image/heif"])
    }
}
