// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitQuality

@testable import ThumbKitCLI

struct CompareCommandTests {
    /// Writes `image` as a PNG named `name` in `folder`; returns its path.
    static func writePNG(_ image: PixelBuffer, in folder: String, name: String) throws -> String {
        let path = (folder as NSString).appendingPathComponent(name)
        try FileIO.writeAtomically(try ImageEncoders.encode(image, options: EncodeOptions(format: .png)), to: path)
        return path
    }

    /// A temporary folder, removed at the end of the test.
    private final class Folder {
        let path = NSTemporaryDirectory() + "compare-\(UUID().uuidString)"
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    private struct Run {
        let status: Int32
        let stdout: String
        let stderr: String

        init(_ argv: [String]) async {
            let out = TextOutput()
            let err = TextOutput()
            status = await CLI.run(argv, commands: ThumbKitCommands.all, stdout: out, stderr: err)
            stdout = out.text
            stderr = err.text
        }
    }

    /// Two flat grey images 100 and 100 + d: every sample differs by d, so MSE = d² and
    /// PSNR = 20·log10(255 / d); every window has σ = 0, so SSIM = (2·μa·μb + C1)/(μa² + μb² + C1).
    private static func expected(d: Double) -> (ssim: Double, psnr: Double) {
        let c1 = (0.01 * 255) * (0.01 * 255)
        let a = 100.0
        let b = 100.0 + d
        return ((2 * a * b + c1) / (a * a + b * b + c1), 20 * log10(255 / d))
    }

    @Test(arguments: [1, 5, 40])
    func flatImagesDifferingByDHaveTheHandComputedScores(d: Int) async throws {
        let folder = try Folder()
        let a = try Self.writePNG(
            PixelBuffer(width: 16, height: 12, fill: RGBA(100, 100, 100)), in: folder.path, name: "a.png")
        let level = UInt8(100 + d)
        let b = try Self.writePNG(
            PixelBuffer(width: 16, height: 12, fill: RGBA(level, level, level)), in: folder.path, name: "b.png")
        let run = await Run(["compare", "--json", a, b])
        #expect(run.status == 0 && run.stderr.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Double])
        #expect(Set(object.keys) == ["ssim", "psnr"])
        let want = Self.expected(d: Double(d))
        #expect(abs(try #require(object["psnr"]) - want.psnr) < 1e-9)
        #expect(abs(try #require(object["ssim"]) - want.ssim) < 1e-9)

        let text = await Run(["compare", a, b])
        #expect(text.stdout == String(format: "SSIM %.6f  PSNR %.2f dB\n", want.ssim, want.psnr))
    }

    @Test func identicalImagesHaveAnInfinitePSNRWrittenAsNullInJSON() async throws {
        let folder = try Folder()
        let a = try Self.writePNG(
            PixelBuffer(width: 9, height: 9, fill: RGBA(10, 200, 30)), in: folder.path, name: "a.png")
        let json = await Run(["compare", "--json", a, a])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["psnr"] is NSNull && object["ssim"] as? Double == 1)
        let text = await Run(["compare", a, a])
        #expect(text.stdout == "SSIM 1.000000  PSNR inf\n")
    }

    @Test func transparentPixelsAreComparedOverWhite() async throws {
        let folder = try Folder()
        let clear = try Self.writePNG(
            PixelBuffer(width: 8, height: 8, fill: .transparent), in: folder.path, name: "clear.png")
        let white = try Self.writePNG(
            PixelBuffer(width: 8, height: 8, fill: .white), in: folder.path, name: "white.png")
        let run = await Run(["compare", clear, white])
        #expect(run.stdout == "SSIM 1.000000  PSNR inf\n")
    }

    @Test func imagesOfDifferentSizesAreAClearErrorWithExitOne() async throws {
        let folder = try Folder()
        let a = try Self.writePNG(PixelBuffer(width: 16, height: 16, fill: .white), in: folder.path, name: "a.png")
        let b = try Self.writePNG(PixelBuffer(width: 8, height: 16, fill: .white), in: folder.path, name: "b.png")
        let run = await Run(["compare", a, b])
        #expect(run.status == 1 && run.stdout.isEmpty)
        #expect(run.stderr == "thumbkit: \(a) and \(b): cannot compare images of different sizes: 16x16 and 8x16\n")
    }

    @Test func anUnreadableFileIsReportedByPathWithExitOne() async throws {
        let folder = try Folder()
        let a = try Self.writePNG(PixelBuffer(width: 8, height: 8, fill: .white), in: folder.path, name: "a.png")
        let missing = folder.path + "/missing.png"
        let run = await Run(["compare", a, missing])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("thumbkit: \(missing): "))
    }

    @Test(arguments: [
        (["compare"], UsageError.missingArgument("reference")),
        (["compare", "a.png"], .missingArgument("image")),
        (["compare", "a.png", "b.png", "c.png"], .unexpectedArgument("c.png")),
        (["compare", "--psnr", "a.png", "b.png"], .unknownOption("--psnr")),
    ])
    func wrongCommandLinesAreUsageErrors(argv: [String], expected: UsageError) {
        let parser = ArgumentParser(root: CLI.rootSpec(commands: ThumbKitCommands.all))
        #expect(throws: expected) { try parser.parse(argv) }
    }
}
