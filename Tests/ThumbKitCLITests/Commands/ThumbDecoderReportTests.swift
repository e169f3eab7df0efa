// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitCLI

/// `thumb --json` names the decoder each file took (`"decoder"`) and a JPEG's DCT scale
/// (`"decodeScale"`), through both of the pipeline's sinks: rows streamed into the resamplers,
/// and the whole image a smart crop needs.
struct ThumbDecoderReportTests {
    /// One file per decode path, made on the fly.
    static func fixture() throws -> URL {
        let dir = try TestBinary.temporaryDirectory("tk-decoder")
        let photo = GeneratedImages.pixels(width: 800, height: 600, seed: 5)
        var icon = PixelBuffer(width: 64, height: 64, fill: .transparent)
        for y in 16..<48 { for x in 16..<48 { icon[x, y] = RGBA(255, 0, 0) } }
        let files: [(String, PixelBuffer, EncodeOptions)] = [
            ("baseline444.jpg", photo, EncodeOptions(format: .jpeg, subsampling: .yuv444)),
            ("baseline420.jpg", photo, EncodeOptions(format: .jpeg, subsampling: .yuv420)),
            ("progressive.jpg", photo, EncodeOptions(format: .jpeg, progressive: true)),
            ("small.jpg", GeneratedImages.pixels(width: 64, height: 48, seed: 6), EncodeOptions(format: .jpeg)),
            ("photo.png", GeneratedImages.pixels(width: 200, height: 150, seed: 7), EncodeOptions(format: .png)),
            ("icon.png", icon, EncodeOptions(format: .png)),
            ("picture.webp", photo, EncodeOptions(format: .webp)),
            ("tiny.avif", GeneratedImages.pixels(width: 64, height: 48, seed: 8), EncodeOptions(format: .avif)),
        ]
        for (name, image, options) in files {
            try Data(ImageEncoders.encode(image, options: options)).write(to: dir.appendingPathComponent(name))
        }
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 1, 2, 3]).write(to: dir.appendingPathComponent("broken.jpg"))
        return dir
    }

    /// Runs `thumb --json` with `options` over `inputs` and returns each item's file name with
    /// its decoder and decode scale.
    static func decoders(_ inputs: [String], options: [String]) async throws -> [String: [String?]] {
        let out = TextOutput(capturingAsTerminal: false)
        let err = TextOutput(capturingAsTerminal: false)
        let outputs = try TestBinary.temporaryDirectory("tk-decoder-out")
        defer { try? FileManager.default.removeItem(at: outputs) }
        _ = await CLI.run(
            ["thumb", "--json", "-o", outputs.path + "/%s.png"] + options + inputs, commands: ThumbKitCommands.all,
            stdout: out, stderr: err, environment: [:])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(out.text.utf8)) as? [String: Any], "\(err.text)")
        let items = try #require(report["items"] as? [[String: Any]])
        var found: [String: [String?]] = [:]
        for item in items {
            let name = URL(fileURLWithPath: try #require(item["input"] as? String)).lastPathComponent
            found[name] = [item["decoder"] as? String, item["decodeScale"] as? String]
        }
        return found
    }

    @Test(arguments: [["-s", "32x32"], ["-s", "32x32", "--gravity", "smart"]])
    func eachFileNamesTheDecoderItTook(_ options: [String]) async throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let found = try await Self.decoders([dir.path], options: options)
        #expect(found["baseline444.jpg"] == ["baseline-dc", "1/8"])
        // 4:2:0 too: its chroma's 2×2 IDCT is done from the 25 coefficients it reads.
        #expect(found["baseline420.jpg"] == ["baseline-dc", "1/8"])
        #expect(found["progressive.jpg"] == ["progressive-dc", "1/8"])
        // 32 px from 48 with the twice-the-detail margin: no shrink-on-load.
        #expect(found["small.jpg"] == ["libjpeg", "8/8"])
        #expect(found["photo.png"] == ["libdeflate", nil])
        #expect(found["icon.png"] == ["libdeflate", nil])
        #expect(found["picture.webp"] == ["libwebp", nil])
        #expect(found["tiny.avif"] == ["libheif", nil])
        // A failed file names no decoder.
        #expect(found["broken.jpg"] == [nil, nil])
        #expect(found.count == 9)
    }

    /// A PNG whose inflated rows do not fit the fast path's budget (4 bytes a pixel of
    /// `--max-pixels`; RGBA rows take 4 a pixel plus a filter byte each) streams through libpng.
    @Test func aPNGOverTheFastPathsBudgetSaysLibpng() async throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let icon = dir.appendingPathComponent("icon.png").path
        let over = try await Self.decoders([icon], options: ["-s", "16x16", "--max-pixels", "4096"])
        #expect(over["icon.png"] == ["libpng", nil])
        let within = try await Self.decoders([icon], options: ["-s", "16x16", "--max-pixels", "8192"])
        #expect(within["icon.png"] == ["libdeflate", nil])
    }
}
