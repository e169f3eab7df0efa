// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitCLI

/// `thumbnailer` and `xdg` take `thumb`'s limits (issue 27, item 8): a file manager runs them on
/// every file it shows, so what cannot be interrupted is refused before it starts there too.
struct DesktopLimitTests {
    static let huge = "webp-lossless-flat-16383x16383.webp"

    @Test func thumbnailerRefusesATinyHugeWebPBeforeDecodingIt() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-thumbnailer-limits").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/big.webp"
        try FileIO.writeAtomically(try TestImages.bytes(of: Self.huge), to: input, durable: false)
        let r = await NameEscapingTests.run(
            ["thumbnailer", "-s", "128", "--timeout", "1", input, dir + "/o.png"], home: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("takes at least 1.3 s to decode in one libwebp call"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.png"))
        // The pixel limit applies too.
        let small = await NameEscapingTests.run(
            ["thumbnailer", "-s", "128", "--max-pixels", "1000000", input, dir + "/o.png"], home: dir)
        #expect(small.status == 1)
        #expect(small.stderr.contains("exceeds the pixel limit of 1000000 pixels"), "\(small.stderr)")
    }

    @Test func xdgRefusesItAndRecordsTheFailure() async throws {
        let dir = try TestBinary.temporaryDirectory("tk-xdg-limits").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try FileIO.writeAtomically(try TestImages.bytes(of: Self.huge), to: dir + "/in/big.webp", durable: false)
        let r = await NameEscapingTests.run(["xdg", "--max-pixels", "1000000", dir + "/in"], home: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("exceeds the pixel limit of 1000000 pixels"), "\(r.stderr)")
    }
}
