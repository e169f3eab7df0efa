// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitQuality
import ThumbKitTestSupport

@testable import ThumbKit

/// WebP and AVIF output: every file ThumbKit writes decodes with the independent tools
/// (dwebp and webpinfo; avifdec and heif-info) and with ThumbKit, close to what was encoded.
struct ModernFormatEncodeTests {
    struct Output: Sendable, CustomStringConvertible {
        var name: String
        var source: String
        var options: EncodeOptions
        var minimumSSIM: Double
        var description: String { name }
    }

    static let outputs: [Output] = [
        Output(name: "q80.webp", source: "photo", options: EncodeOptions(format: .webp), minimumSSIM: 0.9),
        Output(name: "alpha.webp", source: "alpha", options: EncodeOptions(format: .webp), minimumSSIM: 0.9),
        Output(
            name: "lossless.webp", source: "alpha", options: EncodeOptions(format: .webp, lossless: true),
            minimumSSIM: 1),
        Output(name: "q50.avif", source: "photo", options: EncodeOptions(format: .avif), minimumSSIM: 0.9),
        Output(name: "alpha.avif", source: "alpha", options: EncodeOptions(format: .avif), minimumSSIM: 0.9),
    ]

    @Test(.needsCorpus, .needs(ModernFormatFixtures.tools), .tags(.corpus), arguments: outputs)
    func outputDecodesWithIndependentDecoders(_ output: Output) throws {
        guard let fixtures = ModernFormatFixtures.require() else { return }
        let image = fixtures.sources[output.source]!
        let bytes = try ImageEncoders.encode(image, options: output.options, path: output.name)
        let url = fixtures.folder.appendingPathComponent("out-" + output.name)
        try Data(bytes).write(to: url)
        #expect(ImageFormat.sniff(bytes) == output.options.format)
        let png = url.path + ".png"
        if output.options.format == .webp {
            try CodecTools.mustRun("dwebp", [url.path, "-o", png])
            let info = try CodecTools.run("webpinfo", [url.path])
            #expect(info.status == 0 && info.output.contains("No error detected"), "\(info.output)")
            #expect(info.output.contains("Format: Lossless") == output.options.lossless)
        } else {
            try CodecTools.mustRun("avifdec", [url.path, png])
            let info = try CodecTools.run("heif-info", [url.path])
            #expect(info.status == 0 && info.output.contains("\(image.width)x\(image.height)"), "\(info.output)")
            #expect(info.output.contains("alpha channel: yes") == (output.source == "alpha"), "\(info.output)")
        }
        // What the independent decoder wrote, read back through ThumbKit's PNG decoder.
        let theirs = try ImageDecoders.decodeFile(atPath: png).buffer
        let ours = try ImageDecoders.decode(bytes, path: output.name).buffer
        // Close to what was encoded through their decoder too. (On the icon's hard edges libavif's
        // and libheif's chroma upsampling differ: about 0.98 SSIM between the two decodes.)
        let viaTheirs = try ImageComparison.ssim(image, theirs)
        #expect(viaTheirs >= output.minimumSSIM, "SSIM \(viaTheirs) through the independent decoder")
        let agreement = try ImageComparison.ssim(theirs, ours)
        #expect(agreement > 0.97, "SSIM \(agreement) between theirs and ours")
        if output.minimumSSIM >= 1 {
            // Lossless: identical once composited (RGB under fully transparent pixels may differ).
            #expect(try ImageComparison.ssim(image, ours) > 0.9999)
        } else {
            let ssim = try ImageComparison.ssim(image, ours)
            #expect(ssim >= output.minimumSSIM, "SSIM \(ssim)")
        }
        #expect(ours.hasTransparency == image.hasTransparency)
    }

    @Test(.needsCorpus, .needs(ModernFormatFixtures.tools), .tags(.corpus)) func avifWithoutProfileSaysSRGBInNclx()
        throws
    {
        guard let fixtures = ModernFormatFixtures.require() else { return }
        let bytes = try ImageEncoders.encode(fixtures.sources["photo"]!, options: EncodeOptions(format: .avif))
        let url = fixtures.folder.appendingPathComponent("nclx.avif")
        try Data(bytes).write(to: url)
        let info = try CodecTools.run("heif-info", [url.path])
        #expect(info.output.contains("color profile: nclx"), "\(info.output)")
        #expect(try ImageDecoders.HEIF.parse(bytes, format: .avif, path: "", limits: ImageLimits()).icc == nil)
    }

    @Test(.needsCorpus, .needs(ModernFormatFixtures.tools), .tags(.corpus))
    func keptProfileIsEmbeddedAndReadBackAsColourManagement() throws {
        guard let fixtures = ModernFormatFixtures.require() else { return }
        let icc = ColorFixtures.icc(ColorFixtures.displayP3)
        let profile = ColorProfile(iccData: icc)
        let image = fixtures.sources["photo"]!
        let keep = DecodeOptions(color: ColorOptions(keepProfile: true))
        for format in [ImageFormat.webp, .avif] {
            let bytes = try ImageEncoders.encode(image, options: EncodeOptions(format: format), profile: profile)
            // Kept: the profile comes back as written.
            #expect(try ImageDecoders.decode(bytes, path: "p3", options: keep).colorProfile == profile)
            // Default: converted from Display P3 to sRGB, so the pixels change and are untagged.
            let converted = try ImageDecoders.decode(bytes, path: "p3")
            let asStored = try ImageDecoders.decode(bytes, path: "p3", options: keep)
            #expect(converted.colorProfile == nil)
            #expect(converted.buffer != asStored.buffer, "\(format) was not colour managed")
        }
    }

    @Test func heicIsReadOnly() throws {
        #expect(!ImageFormat.heic.isWritable)
        #expect(throws: EncodeError.self) {
            _ = try ImageEncoders.encode(PixelBuffer(width: 8, height: 8), options: EncodeOptions(format: .heic))
        }
        #expect(throws: OutputTemplate.Problem.unsupportedExtension("heic")) {
            _ = try OutputTemplate(validating: "%s.heic", format: nil)
        }
        #expect(try OutputTemplate(validating: "%s.webp", format: nil).format == .webp)
        #expect(try OutputTemplate(validating: "%s.AVIF", format: nil).format == .avif)
    }

    @Test func defaultQualitiesFollowTheFormat() throws {
        #expect(EncodeOptions(format: .webp).quality == 80)
        #expect(EncodeOptions(format: .avif).quality == 50)
        #expect(EncodeOptions(format: .jpeg).quality == 85)
        // Options saved before lossless/avifSpeed existed still decode.
        let old =
            #"{"format":"jpeg","quality":85,"subsampling":"4:2:0","progressive":false,"#
            + #""optimizeHuffman":true,"pngCompressionLevel":6,"background":{"r":255,"g":255,"b":255,"a":255}}"#
        let decoded = try JSONDecoder().decode(EncodeOptions.self, from: Data(old.utf8))
        #expect(decoded == EncodeOptions())
    }
}
