// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

/// `thumbkit xdg` and `thumbkit thumbnailer` as real processes.
struct XDGCommandTests {
    static func fixture() throws -> URL {
        let dir = try TestBinary.temporaryDirectory("tk-xdgcli")
        let src = dir.appendingPathComponent("src #1/sub dir ü", isDirectory: true)
        try FileManager.default.createDirectory(at: src, withIntermediateDirectories: true)
        try Data(GeneratedImages.jpeg(width: 400, height: 300, seed: 1)).write(
            to: src.appendingPathComponent("a 100%.jpg"))
        try Data(GeneratedImages.png(width: 50, height: 40, seed: 2)).write(to: src.appendingPathComponent("small.png"))
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 1]).write(to: src.appendingPathComponent("broken.jpg"))
        return dir
    }

    static func listing(_ dir: String) -> [String] {
        (FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? []).sorted()
    }

    @Test(.tags(.realProcess)) func xdgFillsTheCacheThenASecondRunDecodesNothing() throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["XDG_CACHE_HOME": dir.path + "/cache", "HOME": dir.path]
        let before = Self.listing(dir.path + "/src #1")
        let first = try TestBinary.run(["xdg", "-r", "-j", "2", dir.path + "/src #1"], environment: env)
        #expect(first.status == 1)
        #expect(first.stderrLines.count == 1 && first.stderrLines[0].contains("broken.jpg"), "\(first.stderr)")
        #expect(first.stdout.contains("3 files: 2 decoded, 4 thumbnails written (normal, large)"), "\(first.stdout)")
        #expect(Self.listing(dir.path + "/src #1") == before, "nothing is written beside the sources")
        let cache = Self.listing(dir.path + "/cache/thumbnails")
        #expect(
            cache.filter { $0.hasPrefix("normal/") }.count == 2 && cache.filter { $0.hasPrefix("large/") }.count == 2)
        #expect(cache.filter { $0.hasPrefix("fail/thumbkit-") && $0.hasSuffix(".png") }.count == 1)

        let second = try TestBinary.run(["xdg", "-r", dir.path + "/src #1"], environment: env)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.isEmpty)
        #expect(
            second.stdout.contains(
                "3 files: nothing decoded, 0 thumbnails written (normal, large), 2 up to date, 1 known failures skipped"
            ),
            "\(second.stdout)")

        let json = try TestBinary.run(
            ["xdg", "--json", "--size", "x-large", "-r", dir.path + "/src #1"], environment: env)
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((report?["report"] as? [String: Any])?["thumbnailsWritten"] as? Int == 2, "\(json.stdout)")

        // --prune after a source is removed: lists what it removed, keeps the rest.
        try FileManager.default.removeItem(atPath: dir.path + "/src #1/sub dir ü/small.png")
        let prune = try TestBinary.run(["xdg", "--prune"], environment: env)
        #expect(prune.status == 0, "\(prune.stderr)")
        #expect(prune.stdout.contains("pruned 3 entries"), "\(prune.stdout)")
        #expect(prune.stdout.components(separatedBy: "removed ").count - 1 == 3)
        #expect(prune.stdout.contains("small.png"))
    }

    @Test(.tags(.realProcess)) func usageErrorsExitTwo() throws {
        #expect(try TestBinary.run(["xdg"]).status == 2)
        #expect(try TestBinary.run(["xdg", "--size", "huge", "x.jpg"]).status == 2)
        #expect(try TestBinary.run(["thumbnailer", "-s", "128", "only-one"]).status == 2)
    }

    @Test(.tags(.realProcess)) func thumbnailerFollowsGdkPixbufThumbnailersConvention() throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = dir.path + "/src #1/sub dir ü/a 100%.jpg"
        let uri = "file://" + dir.path + "/src%20%231/sub%20dir%20%C3%BC/a%20100%25.jpg"
        for (input, output) in [(photo, dir.path + "/out1.png"), (uri, dir.path + "/out2.png")] {
            let run = try TestBinary.run(["thumbnailer", "-s", "256", input, output])
            #expect(run.status == 0, "\(run.stderr)")
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
            let image = try ImageDecoders.decode(bytes, path: output).buffer
            #expect(image.width == 256 && image.height == 192)
            let text = try PNGTextChunks.read(bytes, path: output)
            #expect(text["Thumb::URI"] == uri)
            #expect(text["Thumb::Mimetype"] == "image/jpeg")
            #expect(text["Thumb::Image::Width"] == "400")
        }
        // Never enlarged.
        let small = try TestBinary.run([
            "thumbnailer", "-s", "512", dir.path + "/src #1/sub dir ü/small.png", dir.path + "/o.png",
        ])
        #expect(small.status == 0)
        let image = try ImageDecoders.decode(
            [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path + "/o.png"))), path: "o")
        #expect(image.buffer.width == 50 && image.buffer.height == 40)
        // Failures: one line on stderr, non-zero, no output.
        for input in [dir.path + "/src #1/sub dir ü/broken.jpg", dir.path + "/missing.jpg", "http://example.com/x.png"]
        {
            let run = try TestBinary.run(["thumbnailer", "-s", "128", input, dir.path + "/fail.png"])
            #expect(run.status != 0)
            #expect(run.stderrLines.count == 1, "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.path + "/fail.png"))
        }
    }
}
