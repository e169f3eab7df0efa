// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitCLI

/// File names that are not UTF-8 work end to end in `xdg` and `thumbnailer`, as in `thumb`
/// (issue 27, item 9).
struct CommandFileNameTests {
    static let latin1Name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".png".utf8)

    @Test func xdgThumbnailsANameThatIsNotUTF8() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-xdg-bytes").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try ThumbInputBytesTests.create(dir + "/in", name: Self.latin1Name, contents: GeneratedImages.png(seed: 1))
        let r = await NameEscapingTests.run(["xdg", dir + "/in"], home: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("1 files: 1 decoded, 2 thumbnails written"), "\(r.stdout)")
        let json = await NameEscapingTests.run(["xdg", "--json", dir + "/in"], home: dir)
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains("\"input\" : \"\(dir)/in/caf\\\\xE9.png\""), "\(json.stdout)")
        #expect(json.stdout.contains("\"status\" : \"up-to-date\""), "\(json.stdout)")
    }

    @Test func thumbnailerTakesTheURIOfANameThatIsNotUTF8() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-thumbnailer-bytes").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ThumbInputBytesTests.create(dir, name: Self.latin1Name, contents: GeneratedImages.png(seed: 2))
        // The temporary folder's name needs no escape; the file's é byte is %E9, as GLib writes it.
        let uri = "file://" + dir + "/caf%E9.png"
        let output = dir + "/out.png"
        let r = await NameEscapingTests.run(["thumbnailer", "-s", "32", uri, output], home: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let text = try PNGTextChunks.read(try FileIO.read(output), path: output)
        #expect(text["Thumb::URI"] == uri)
        // A path argument with the raw byte gives the same URI.
        let byPath = await NameEscapingTests.run(
            ["thumbnailer", "-s", "32", PathBytes.string(Array((dir + "/").utf8) + Self.latin1Name), output],
            home: dir)
        #expect(byPath.status == 0, "\(byPath.stderr)")
        #expect(try PNGTextChunks.read(try FileIO.read(output), path: output)["Thumb::URI"] == uri)
    }
}
