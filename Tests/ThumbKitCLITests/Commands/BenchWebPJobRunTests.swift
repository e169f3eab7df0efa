// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitBench

/// The `webp-256` job end to end, through the built binary and the real peers: every tool's
/// WebP outputs are found, decoded and scored against the reference, as in the JPEG jobs.
struct BenchWebPJobRunTests {
    /// vipsthumbnail and Pillow are in TEST_PACKAGES; ImageMagick and GraphicsMagick
    /// (scripts/install-peers) are checked too when `--peers` finds them.
    static let requirements: [ToolRequirement] = [.program("vipsthumbnail"), .pillow("webp")]

    static let pillowScript = TestImages.packageRoot.appendingPathComponent("scripts/peers/pillow_thumb.py").path

    /// A 640×480 photo-like gradient with texture, and a 400×400 picture whose lower half is
    /// transparent: a tool that dropped alpha (black under the cut-out) would score far below
    /// the reference, which is composited over white.
    static func writeCorpus(in folder: URL) throws {
        var photo = PixelBuffer(width: 640, height: 480)
        for y in 0..<480 {
            for x in 0..<640 {
                let wave = 128 + 100 * sin(Double(x) / 9) * cos(Double(y) / 13)
                photo[x, y] = RGBA(UInt8(x * 255 / 639), UInt8(wave), UInt8(y * 255 / 479))
            }
        }
        var cutOut = PixelBuffer(width: 400, height: 400)
        for y in 0..<400 {
            for x in 0..<400 {
                cutOut[x, y] = RGBA(UInt8(x / 2), 60, UInt8(y / 2), y < 200 ? 255 : UInt8(x * 255 / 399))
            }
        }
        for (set, name, image, format) in [
            ("jpeg", "photo.jpg", photo, ImageFormat.jpeg), ("png", "cut-out.png", cutOut, .png),
        ] {
            let dir = folder.appendingPathComponent(set)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let bytes = try ImageEncoders.encode(image, options: EncodeOptions(format: format, quality: 95))
            try Data(bytes).write(to: dir.appendingPathComponent(name))
        }
    }

    @Test(.needs(requirements), .tags(.realProcess))
    func everyToolsWebPOutputsAreDecodedAndScored() throws {
        guard ToolRequirement.require(Self.requirements) else { return }
        let folder = try TestBinary.temporaryDirectory("bench-webp")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.writeCorpus(in: folder.appendingPathComponent("corpus"))
        let json = folder.appendingPathComponent("bench.json").path
        let bench = try TestBinary.run(
            [
                "bench", "--corpus", folder.appendingPathComponent("corpus").path, "--job", "webp-256", "--peers",
                "--runs", "1", "-j", "2", "--json", json, "--no-history", "--pillow-script", Self.pillowScript,
            ], in: folder)
        #expect(bench.status == 0, "\(bench.stdout)\(bench.stderr)")

        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let report = try decoder.decode(BenchReport.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(report.jobs.map(\.key) == ["webp-256/jpeg", "webp-256/png"])
        for job in report.jobs {
            #expect(job.outputFormat == "webp" && job.images == 1)
            let tools = job.tools.map(\.tool)
            #expect(Set(["thumbkit", "vipsthumbnail", "pillow"]).isSubset(of: tools), "\(job.key): \(tools)")
            for tool in job.tools {
                let row = "\(job.key) \(tool.tool)"
                #expect(tool.failures == [], "\(row)")
                #expect(tool.scoredOutputs == 1 && tool.sizeMismatches == 0, "\(row)")
                #expect(tool.missingOutputs == 0 && tool.unreadableOutputs == 0, "\(row)")
                // Scored, and close to the reference: every tool's SSIM of the photo's fine waves
                // at q80 was 0.866–0.869. SSIM alone would not see a dropped alpha (the cut-out
                // opaque over black scores 0.858 against the reference over white) but PSNR
                // does (10.9 dB).
                #expect((tool.ssim?.min ?? 0) > 0.8, "\(row): SSIM \(String(describing: tool.ssim))")
                #expect((tool.psnr?.min ?? 0) > 20, "\(row): PSNR \(String(describing: tool.psnr))")
            }
        }
        #expect(bench.stdout.contains("webp-256"))
    }
}
