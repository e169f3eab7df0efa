// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitQuality
import ThumbKitTestSupport

@testable import ThumbKit

/// WebP, HEIC and AVIF input: detection from bytes, decoding close to the source PNG,
/// orientation (libheif's irot applied once, EXIF never on top), limits, deadlines, bad files.
struct ModernFormatDecodeTests {
    @Test(.needsCorpus, .needs(ModernFormatFixtures.tools), .tags(.corpus), arguments: ModernFormatFixtures.cases)
    func decodesCloseToTheSourcePNG(_ item: ModernFormatFixtures.Case) throws {
        guard let fixtures = ModernFormatFixtures.require() else { return }
        let data = try fixtures.bytes(item.file)
        #expect(ImageFormat.sniff(data) == item.format)
        let header = try ImageDecoders.readHeader(data, path: item.file)
        #expect(header.orientation == .up)  // HEIF: libheif applies irot/imir; WebP has none
        let decoded = try ImageDecoders.decode(data, path: item.file)
        let expected = fixtures.sources[item.source]!.applying(item.expectedOrientation)
        #expect(decoded.buffer.width == expected.width && decoded.buffer.height == expected.height)
        #expect(header.width == expected.width && header.height == expected.height)
        let ssim = try ImageComparison.ssim(expected, decoded.buffer)
        #expect(ssim >= item.minimumSSIM, "SSIM \(ssim) of \(item.file)")
        if item.source == "alpha" {
            #expect(header.hasAlpha)
            #expect(decoded.buffer.hasTransparency)
        }
    }

    @Test(.needsCorpus, .needs(ModernFormatFixtures.tools), .tags(.corpus))
    func heifExifOrientationIsReadButNeverAppliedOnTopOfIrot() throws {
        guard let fixtures = ModernFormatFixtures.require() else { return }
        for name in ["exif6.heic", "irot-exif6.avif"] {
            let data = try fixtures.bytes(name)
            #expect(try ImageDecoders.HEIF.exifOrientation(data, path: name) == .right, "\(name) carries EXIF 6")
        }
        // Through the whole thumbnail path: irot once (portrait 160×240 → a 60×90 fit), EXIF 6 not again.
        let rotated = try Thumbnailer.render(
            try fixtures.bytes("irot-exif6.avif"), path: "irot-exif6.avif",
            variants: [ResizeOptions(width: 90, height: 90, mode: .fit)])
        #expect(rotated.images[0].width == 60 && rotated.images[0].height == 90)
        let plain = try Thumbnailer.render(
            try fixtures.bytes("exif6.heic"), path: "exif6.heic",
            variants: [ResizeOptions(width: 90, height: 90, mode: .fit)])
        #expect(plain.images[0].width == 90 && plain.images[0].height == 60)
    }

    @Test(.needsCorpus, .needs(ModernFormatFixtures.tools), .tags(.corpus)) func animatedWebPGivesItsFirstFrame() throws
    {
        guard let fixtures = ModernFormatFixtures.require() else { return }
        let data = try fixtures.bytes("animated.webp")
        let parsed = try ImageDecoders.WebP.readHeaderAndProfile(data, path: "animated.webp")
        #expect(parsed.frames == 2)
        let decoded = try ImageDecoders.decode(data, path: "animated.webp")
        #expect(decoded.buffer == fixtures.sources["photo"]!)  // lossless first frame: exact
        #expect(decoded.buffer != fixtures.sources["second"]!)
    }

    @Test(.needsCorpus, .needs(ModernFormatFixtures.tools), .tags(.corpus))
    func tenBitAVIFIsReportedAndReducedToEightBits() throws {
        guard let fixtures = ModernFormatFixtures.require() else { return }
        let parsed = try ImageDecoders.HEIF.parse(
            try fixtures.bytes("deep10.avif"), format: .avif, path: "deep10.avif", limits: ImageLimits())
        #expect(parsed.bitDepth == 10)
    }

    @Test func sniffingUsesBytesNeverNames() {
        func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
            let body = Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
            let size = 8 + body.count
            return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + body
        }
        #expect(ImageFormat.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(ImageFormat.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)) == nil)
        #expect(ImageFormat.sniff(ftyp("heic", ["mif1", "heic"])) == .heic)
        #expect(ImageFormat.sniff(ftyp("mif1", ["heic"])) == .heic)
        #expect(ImageFormat.sniff(ftyp("avif", ["mif1", "miaf"])) == .avif)
        #expect(ImageFormat.sniff(ftyp("mif1", ["avif", "miaf"])) == .avif)
        #expect(ImageFormat.sniff(ftyp("avis", [])) == .avif)
        #expect(ImageFormat.sniff(ftyp("isom", ["mp41", "avc1"])) == nil)  // an MP4 video
        #expect(ImageFormat.sniff(ftyp("qt  ", [])) == nil)
    }

    @Test(.needsCorpus, .needs(ModernFormatFixtures.tools), .tags(.corpus)) func hugeHeadersAreRefusedBeforeAllocation()
        throws
    {
        guard let fixtures = ModernFormatFixtures.require() else { return }
        // A lossy WebP whose VP8 frame header says 16383×16383 (1 GiB of RGBA if allocated).
        var webp = try fixtures.bytes("lossy.webp")
        #expect(Array(webp[12..<16]) == Array("VP8 ".utf8))
        for offset in [26, 28] {
            webp[offset] = 0xFF
            webp[offset + 1] = 0x3F
        }
        let small = DecodeOptions(limits: ImageLimits(maxPixels: 1_000_000))
        #expect(try ImageDecoders.readHeader(webp, path: "huge.webp").width == 16383)
        #expect(
            throws: DecodeError.overLimit(
                path: "huge.webp", reason: "16383x16383 exceeds the pixel limit of 1000000 pixels")
        ) {
            _ = try ImageDecoders.decode(webp, path: "huge.webp", options: small)
        }
        // A HEIC whose ispe says 70000×1000: over the default 65500 px a side.
        var heic = try fixtures.bytes("plain.heic")
        let ispe = try #require(heic.indices.dropLast(16).first { heic[$0..<$0 + 4].elementsEqual(Array("ispe".utf8)) })
        let big: [UInt8] = [0, 1, 0x11, 0x70, 0, 0, 0x03, 0xE8]
        heic.replaceSubrange((ispe + 8)..<(ispe + 16), with: big)
        // In the words PNG and JPEG get, not libheif's "memory allocation error".
        #expect(
            throws: DecodeError.overLimit(
                path: "huge.heic", reason: "70000x1000 exceeds the dimension limit of 65500 pixels a side")
        ) {
            _ = try ImageDecoders.decode(heic, path: "huge.heic")
        }
    }

    @Test(
        .needsCorpus, .needs(ModernFormatFixtures.tools), .tags(.corpus),
        arguments: ["lossy.webp", "animated.webp", "plain.heic", "alpha.avif"])
    func passedDeadlineStopsTheDecode(_ name: String) throws {
        guard let fixtures = ModernFormatFixtures.require() else { return }
        let data = try fixtures.bytes(name)
        let passed = Deadline(seconds: 1e-9)
        while !passed.hasPassed {}
        #expect(throws: passed.error(path: name)) {
            _ = try ImageDecoders.decode(data, path: name, deadline: passed)
        }
    }

    /// Truncated and corrupted copies of every generated file: one DecodeError each, no crash.
    @Test(.needsCorpus, .needs(ModernFormatFixtures.tools), .tags(.corpus), arguments: ModernFormatFixtures.cases)
    func damagedFilesGiveOneClearError(_ item: ModernFormatFixtures.Case) throws {
        guard let fixtures = ModernFormatFixtures.require() else { return }
        let data = try fixtures.bytes(item.file)
        var flipped = data
        for i in stride(from: data.count / 3, to: data.count, by: 7) { flipped[i] ^= 0x5A }
        let damaged: [(String, [UInt8])] = [
            ("header only", Array(data.prefix(40))), ("half", Array(data.prefix(data.count / 2))),
            ("last byte missing", Array(data.dropLast())), ("flipped", flipped),
        ]
        for (label, bytes) in damaged {
            do {
                let decoded = try ImageDecoders.decode(bytes, path: "bad")
                // Some flips land in bytes a decoder tolerates; the result must still be whole.
                #expect(label == "flipped" || label == "last byte missing", "\(item.file) \(label) decoded")
                #expect(decoded.buffer.pixels.count == decoded.buffer.width * decoded.buffer.height * 4)
            } catch {
                #expect(error.path == "bad")
                #expect(!error.reason.isEmpty && !error.reason.contains("\n"), "\(item.file) \(label): \(error.reason)")
            }
        }
    }
}
