// SPDX-License-Identifier: Apache-2.0
import CLCMS2
import Foundation
import Testing
import ThumbKitQuality
import ThumbKitTestSupport

@testable import ThumbKit

/// Reading embedded profiles (JPEG APP2 chunks, PNG iCCP), converting to sRGB, the transform
/// cache, CMYK, gray profiles, broken profiles and keeping the profile.
struct ColorManagementTests {
    /// A 64×48 colour gradient with a dark corner, 4 bytes a pixel.
    static let gradient: PixelBuffer = {
        var image = PixelBuffer(width: 64, height: 48)
        for y in 0..<48 {
            for x in 0..<64 {
                image[x, y] = RGBA(UInt8(x * 4), UInt8(y * 5), UInt8(255 - x * 2))
            }
        }
        return image
    }()

    static func jpeg(_ image: PixelBuffer = gradient, icc: [UInt8]?) -> [UInt8] {
        ColorFixtures.jpeg(image.pixels, width: image.width, height: image.height, cmyk: false, icc: icc)
    }

    static func decode(_ data: [UInt8], options: ColorOptions = ColorOptions()) throws -> DecodedImage {
        try ImageDecoders.decode(data, path: "test", options: DecodeOptions(color: options))
    }

    // The identifier keys anything made from decoded pixels: pinned, a change bumps v1.
    @Test(arguments: [
        (ColorOptions(), "color/v1?intent=relative,bpc=0,keep=0"),
        (ColorOptions(intent: .perceptual, blackPointCompensation: true), "color/v1?intent=perceptual,bpc=1,keep=0"),
        (ColorOptions(intent: .absolute, keepProfile: true), "color/v1?intent=absolute,bpc=0,keep=1"),
        (ColorOptions(intent: .saturation), "color/v1?intent=saturation,bpc=0,keep=0"),
    ])
    func colorOptionsIdentifierNamesEveryOption(_ options: ColorOptions, _ identifier: String) {
        #expect(options.identifier == identifier)
    }

    @Test func untaggedImageIsTakenAsSRGBAndLeftAlone() throws {
        let untagged = try Self.decode(Self.jpeg(icc: nil))
        #expect(untagged.colorProfile == nil && untagged.colorWarnings.isEmpty)
        // An sRGB profile changes nothing either: it is recognised as an identity and skipped.
        let srgbTagged = try Self.decode(
            ColorFixtures.insertingAPP2(
                ColorFixtures.iccChunks(cmsSRGB(), count: 1), into: Self.jpeg(icc: nil)))
        #expect(srgbTagged.buffer == untagged.buffer && srgbTagged.colorWarnings.isEmpty)
    }

    @Test func adobeRGBPixelsAreConvertedToSRGB() throws {
        // Adobe RGB's pure green is far outside sRGB: relative colorimetric clips it to sRGB green.
        let icc = ColorFixtures.icc(ColorFixtures.adobeRGB)
        let green = PixelBuffer(width: 16, height: 16, fill: RGBA(0, 255, 0))
        let decoded = try Self.decode(Self.jpeg(green, icc: icc))
        let c = decoded.buffer[8, 8]
        #expect(c.r < 8 && c.g > 245 && c.b < 8)
        // A mid grey stays grey (same white point), and the profile's gamma is barely sRGB's.
        let grey = try Self.decode(Self.jpeg(PixelBuffer(width: 16, height: 16, fill: RGBA(128, 128, 128)), icc: icc))
        let g = grey.buffer[8, 8]
        #expect(abs(Int(g.r) - Int(g.g)) <= 1 && abs(Int(g.g) - Int(g.b)) <= 1 && abs(Int(g.g) - 128) <= 3)
        // A saturated Adobe RGB red is less saturated read correctly than read as sRGB.
        let red = try Self.decode(Self.jpeg(PixelBuffer(width: 16, height: 16, fill: RGBA(200, 40, 40)), icc: icc))
        #expect(red.buffer[8, 8].r > 200 && red.buffer[8, 8].g < 40)
    }

    @Test func profileSplitOverSeveralAPP2MarkersIsReassembledInAnyOrder() throws {
        let icc = ColorFixtures.icc(ColorFixtures.proPhoto)
        let plain = Self.jpeg(icc: nil)
        let whole = try Self.decode(ColorFixtures.insertingAPP2(ColorFixtures.iccChunks(icc, count: 1), into: plain))
        let chunks = ColorFixtures.iccChunks(icc, count: 3)
        let shuffled = ColorFixtures.insertingAPP2([chunks[2], chunks[0], chunks[1]], into: plain)
        #expect(SourceColor.jpeg(shuffled).profile?.data == icc)
        let split = try Self.decode(shuffled)
        #expect(split.colorWarnings.isEmpty)
        #expect(split.buffer == whole.buffer)
        #expect(split.buffer != (try Self.decode(plain)).buffer)
    }

    @Test(arguments: [[0, 2], [0, 0, 1], [1, 2]])
    func missingOrRepeatedChunkMakesTheProfileUnusable(_ picked: [Int]) throws {
        let chunks = ColorFixtures.iccChunks(ColorFixtures.icc(ColorFixtures.adobeRGB), count: 3)
        let plain = Self.jpeg(icc: nil)
        let broken = try Self.decode(ColorFixtures.insertingAPP2(picked.map { chunks[$0] }, into: plain))
        #expect(broken.colorWarnings.count == 1)
        #expect(
            broken.colorWarnings.first?.hasPrefix("embedded ICC profile ignored (image treated as sRGB): APP2") == true)
        #expect(broken.buffer == (try Self.decode(plain)).buffer)
    }

    @Test func corruptProfileIsAWarningNotAFailureEvenWhenWarningsAreFatal() throws {
        var junk = ColorFixtures.icc(ColorFixtures.adobeRGB)
        for i in stride(from: 128, to: junk.count, by: 3) { junk[i] = UInt8(truncatingIfNeeded: i * 37) }
        let plain = Self.jpeg(icc: nil)
        let data = ColorFixtures.insertingAPP2(ColorFixtures.iccChunks(junk, count: 1), into: plain)
        let strict = DecodeOptions(failOnWarning: true)
        let decoded = try ImageDecoders.decode(data, path: "junk.jpg", options: strict)
        #expect(decoded.warnings.isEmpty)
        #expect(decoded.colorWarnings.count == 1 && decoded.colorProfile == nil)
        #expect(decoded.buffer == (try Self.decode(plain)).buffer)
        // The thumbnailer reports it among its warnings.
        let set = try Thumbnailer.make(
            from: data, path: "junk.jpg", request: ThumbnailRequest(resize: ResizeOptions(width: 8, height: 8)))
        #expect(set.warnings.contains { $0.hasPrefix("embedded ICC profile ignored") })
    }

    @Test func profileOfTheWrongColourSpaceIsIgnoredWithAWarning() throws {
        // A gray profile on a colour JPEG.
        let decoded = try Self.decode(Self.jpeg(icc: ColorFixtures.grayICC(gamma: 1)))
        #expect(decoded.colorWarnings.first?.contains("colour space (GRAY) does not match") == true)
        #expect(decoded.buffer == (try Self.decode(Self.jpeg(icc: nil))).buffer)
    }

    @Test func grayJPEGWithALinearGrayProfileComesOutOnTheSRGBCurve() throws {
        let ramp = (0..<256).map { UInt8($0) }
        let decoded = try Self.decode(
            ColorFixtures.grayJPEG(ramp, width: 256, height: 1, icc: ColorFixtures.grayICC(gamma: 1)))
        let stored = try Self.decode(ColorFixtures.grayJPEG(ramp, width: 256, height: 1, icc: nil))
        #expect(decoded.colorWarnings.isEmpty)
        for x in 0..<256 {
            let c = decoded.buffer[x, 0]
            #expect(c.r == c.g && c.g == c.b && c.a == 255)
            let linear = Double(stored.buffer[x, 0].g) / 255
            let expected = Int((ColorTransfer.linearToSRGB(linear) * 255).rounded())
            #expect(abs(Int(c.g) - expected) <= 1, "gray \(x)")
        }
        #expect(decoded.buffer[64, 0].g > 130)  // linear 0.25 is sRGB 137: far from 64
    }

    @Test func iccProfileStillAppliesToStoredValuesWhenTheFileAlsoHasASignificantGAMA() throws {
        // ProPhoto's own curve is gamma 1.8, and a writer may say so in gAMA too. libpng then
        // corrects 1.8 to 2.2 before the profile sees the pixels; ThumbKit undoes that first.
        var image = Self.gradient
        for x in 0..<image.width { image[x, 0] = .transparent }  // a translucent row does not matter
        let icc = ColorFixtures.icc(ColorFixtures.proPhoto)
        let file = ColorFixtures.png(image, icc: icc, gamma: 55_556)
        #expect(abs(SourceColor.png(file).preExponent - 0.55556 * 2.2) < 1e-9)
        // The stored values come back (to within the step libpng's 8-bit output leaves).
        let kept = try Self.decode(file, options: ColorOptions(keepProfile: true))
        #expect(kept.colorProfile?.data == icc)
        #expect(try ImageComparison.maximumAbsoluteDifference(kept.buffer, image) <= 1)
        // And the conversion is the one the file without gAMA gets.
        let withGamma = try Self.decode(file)
        let withoutGamma = try Self.decode(ColorFixtures.png(image, icc: icc, gamma: nil))
        #expect(withGamma.colorWarnings.isEmpty)
        #expect(try ImageComparison.meanAbsoluteDifference(withGamma.buffer, withoutGamma.buffer) < 0.5)
        #expect(withoutGamma.buffer != image)
    }

    @Test func alphaIsLeftAsItIs() throws {
        var image = Self.gradient
        for y in 0..<image.height { for x in 0..<image.width { image[x, y].a = UInt8((x * 4 + y) % 256) } }
        let icc = ColorProfile(iccData: ColorFixtures.icc(ColorFixtures.displayP3))
        let png = try ImageEncoders.encode(image, options: EncodeOptions(format: .png), profile: icc)
        let decoded = try Self.decode(png)
        #expect(
            decoded.buffer.pixels.enumerated().allSatisfy {
                $0.offset % 4 != 3 || $0.element == image.pixels[$0.offset]
            })
        #expect(decoded.buffer != image)  // the colours did move
    }

    @Test func transformIsBuiltOncePerProfileIntentAndCompensation() {
        let cache = ColorTransformCache()
        let profile = ColorProfile(iccData: ColorFixtures.icc(ColorFixtures.adobeRGB))
        let key = ColorTransformCache.Key(
            profile: profile, layout: .rgba, intent: .relative, blackPointCompensation: false)
        guard case .transform(let first) = cache.prepared(for: key),
            case .transform(let second) = cache.prepared(
                for: ColorTransformCache.Key(
                    profile: ColorProfile(iccData: profile.data), layout: .rgba, intent: .relative,
                    blackPointCompensation: false))
        else {
            Issue.record("Adobe RGB should need a transform")
            return
        }
        #expect(first === second)
        #expect(cache.buildCount == 1)
        var other = key
        other.blackPointCompensation = true
        _ = cache.prepared(for: other)
        other.intent = .perceptual
        _ = cache.prepared(for: other)
        #expect(cache.buildCount == 3)
    }

    @Test(.needs(ColorFixtures.press)) func intentAndBlackPointCompensationReachLittleCMS() throws {
        // A press profile has perceptual tables, a paper white and a black well above zero.
        guard let press = ColorFixtures.pressProfile() else { return }
        let inks: [[UInt8]] = [[0, 0, 0, 0], [255, 255, 255, 255], [200, 30, 10, 40], [10, 160, 220, 0]]
        let adobe = inks.flatMap { $0.map { 255 - $0 } }  // stored the Adobe way
        func convert(_ options: ColorOptions) -> [UInt8] {
            var pixels = adobe
            let outcome = ColorManagement.convert(
                &pixels, kind: .cmyk(inverted: true), source: SourceColor(profile: ColorProfile(iccData: press)),
                options: options)
            #expect(outcome.warnings.isEmpty)
            return pixels
        }
        let relative = convert(ColorOptions())
        #expect(Array(relative[0..<3]) == [255, 255, 255])  // paper is white
        #expect(relative[4] > 10)  // press black is not sRGB black
        let absolute = convert(ColorOptions(intent: .absolute))
        #expect(absolute[0..<3].contains { $0 < 250 })  // paper keeps its own colour
        #expect(convert(ColorOptions(intent: .perceptual)) != relative)
        let compensated = convert(ColorOptions(blackPointCompensation: true))
        #expect(compensated[4] < relative[4])  // black mapped to black
    }

    @Test func keepProfileLeavesRGBPixelsAndEmbedsTheProfileInTheOutput() throws {
        let icc = ColorFixtures.icc(ColorFixtures.adobeRGB)
        let data = Self.jpeg(icc: icc)
        let kept = try Self.decode(data, options: ColorOptions(keepProfile: true))
        #expect(kept.colorProfile?.data == icc)
        #expect(kept.buffer == (try Self.decode(Self.jpeg(icc: nil))).buffer)
        // PNG and JPEG here; WebP and AVIF in ModernFormatEncodeTests.keptProfileIsEmbedded….
        for format in [ImageFormat.png, .jpeg] {
            let out = try ImageEncoders.encode(
                kept.buffer, options: EncodeOptions(format: format), profile: kept.colorProfile)
            let source: SourceColor = format == .png ? .png(out) : .jpeg(out)
            #expect(source.profile?.data == icc, "\(format)")
        }
    }

    @Test func pngOutputIsTaggedSRGBUnlessItCarriesAProfile() throws {
        let plain = try ImageEncoders.encode(Self.gradient, options: EncodeOptions(format: .png))
        #expect(ColorFixtures.pngChunkTypes(plain).contains("sRGB"))
        #expect(!ColorFixtures.pngChunkTypes(plain).contains("iCCP"))
        let profile = ColorProfile(iccData: ColorFixtures.icc(ColorFixtures.displayP3))
        let tagged = try ImageEncoders.encode(Self.gradient, options: EncodeOptions(format: .png), profile: profile)
        #expect(ColorFixtures.pngChunkTypes(tagged).contains("iCCP"))
        #expect(!ColorFixtures.pngChunkTypes(tagged).contains("sRGB"))
        // JPEG output carries no profile unless asked to: untagged is sRGB.
        let jpeg = try ImageEncoders.encode(Self.gradient, options: EncodeOptions())
        #expect(SourceColor.jpeg(jpeg) == .srgb)
    }

    @Test(.needsCorpus, .tags(.corpus)) func corpusFilesWithProfilesDecode() throws {
        guard TestCorpus.requireCorpus() else { return }
        // Pillow's big profile: 400 kB over seven APP2 markers.
        let big = try TestCorpus.bytes(of: "jpeg/pillow/icc_profile_big.jpg")
        #expect(SourceColor.jpeg(big).profile?.data.count == 399_788)
        #expect(try Self.decode(big).colorWarnings.isEmpty)
        // Pillow's icc-after-SOF: the same one-chunk "profile" twice (7 bytes of text).
        let twice = try Self.decode(try TestCorpus.bytes(of: "corrupt/pillow/icc-after-SOF.jpg"))
        #expect(twice.colorWarnings.count == 1 && twice.buffer.width == 10)
    }

    @Test(.needsCorpus, .tags(.corpus), arguments: ["jpg-cmyk-1.jpg", "jpg-cmyk-2.jpg", "ycck.jpg"])
    func cmykCorpusFileComesOutPlausibly(_ name: String) throws {
        guard TestCorpus.requireCorpus() else { return }
        let path = "jpeg/jpeg-decoder/" + name
        let data = try TestCorpus.bytes(of: path)
        let decoded = try Self.decode(data)
        #expect(decoded.colorWarnings.isEmpty && decoded.colorProfile == nil)
        #expect(decoded.buffer.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
        // Against the naive device conversion: the same picture, and only a profile moves colours.
        let header = try ImageDecoders.JPEG.readHeader(data, path: path)
        var naive = try ColorFidelityTests.storedCMYK(data, width: header.header.width, height: header.header.height)
        CMYKConversion.convertToRGBA(&naive, inverted: header.isAdobe)
        let difference = try ColorDifference.summary(
            PixelBuffer(width: header.header.width, height: header.header.height, pixels: naive), decoded.buffer)
        if SourceColor.jpeg(data).profile == nil {
            #expect(difference.max == 0)
        } else {
            #expect(difference.mean > 1 && difference.mean < 20)
        }
    }
}

/// lcms's built-in sRGB profile as ICC bytes, for tagging test files.
private func cmsSRGB() -> [UInt8] {
    let profile = cmsCreate_sRGBProfile()!
    defer { cmsCloseProfile(profile) }
    return ColorFixtures.save(profile)
}
