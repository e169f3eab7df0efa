// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// A third decoder for ThumbKit's WebP outputs, beside dwebp and webpinfo
/// (``ModernFormatEncodeTests``): Pillow, through `/usr/bin/python3`. It reads each file the way a
/// Python user's code would (`Image.open`), and its size, mode and pixels must match what ThumbKit
/// encoded and decodes.
///
/// WebP only: Debian's Pillow 9.4 has no AVIF or HEIF plugin (AVIF arrived in Pillow 11.2, HEIF
/// needs the separate pillow-heif), so the AVIF outputs are checked by avifdec and heif-info alone.
struct ModernFormatPillowTests {
    struct Output: Sendable, CustomStringConvertible {
        var name: String
        var source: String
        var lossless: Bool
        /// The mode Pillow must report: `RGB` without alpha, `RGBA` with.
        var mode: String
        var description: String { name }
    }

    static let outputs: [Output] = [
        Output(name: "q80.webp", source: "photo", lossless: false, mode: "RGB"),
        Output(name: "alpha.webp", source: "alpha", lossless: false, mode: "RGBA"),
        Output(name: "lossless.webp", source: "alpha", lossless: true, mode: "RGBA"),
    ]

    static let requirements = ModernFormatFixtures.tools + [.pillow("webp")]

    /// Opens argv[1] with Pillow and compares it with argv[2], ThumbKit's own decode as raw
    /// straight RGBA. Prints `format width height mode`, then the mean absolute difference per
    /// channel of the two composited over white (R G B), then of their alpha.
    static let script = """
        import sys
        from PIL import Image, ImageChops, ImageStat
        im = Image.open(sys.argv[1])
        im.load()
        print(im.format, im.size[0], im.size[1], im.mode)
        ours = Image.frombytes("RGBA", im.size, open(sys.argv[2], "rb").read())
        theirs = im.convert("RGBA")
        white = Image.new("RGBA", im.size, (255, 255, 255, 255))
        flat = [Image.alpha_composite(white, x).convert("RGB") for x in (theirs, ours)]
        print(*ImageStat.Stat(ImageChops.difference(*flat)).mean)
        print(ImageStat.Stat(ImageChops.difference(theirs.getchannel("A"), ours.getchannel("A"))).mean[0])
        """

    @Test(.needsCorpus, .needs(requirements), .tags(.corpus), arguments: outputs)
    func pillowReadsOurWebPAtItsSizeModeAndPixels(_ output: Output) throws {
        guard ToolRequirement.require(Self.requirements), let fixtures = ModernFormatFixtures.require() else {
            return
        }
        let image = fixtures.sources[output.source]!
        let options = EncodeOptions(format: .webp, lossless: output.lossless)
        let bytes = try ImageEncoders.encode(image, options: options, path: output.name)
        let file = fixtures.folder.appendingPathComponent("pillow-" + output.name)
        try Data(bytes).write(to: file)
        let ours = try ImageDecoders.decode(bytes, path: output.name).buffer
        let raw = file.path + ".rgba"
        try Data(ours.pixels).write(to: URL(fileURLWithPath: raw))

        let run = try CodecTools.run("/usr/bin/python3", ["-c", Self.script, file.path, raw])
        try #require(run.status == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        try #require(lines.count == 3, "\(run.output)")
        #expect(lines[0] == ["WEBP", "\(image.width)", "\(image.height)", output.mode], "\(run.output)")
        // Pillow decodes with the same libwebp, so the pixels agree to rounding; a swapped
        // channel or a lost alpha would differ by tens.
        let colour = lines[1].compactMap(Double.init)
        let alpha = try #require(Double(lines[2][0]))
        #expect(colour.count == 3 && colour.allSatisfy { $0 <= 1 }, "mean |Δ| of R, G, B: \(colour)")
        #expect(alpha <= (output.lossless ? 0 : 1), "mean |Δ| of alpha: \(alpha)")
    }
}
