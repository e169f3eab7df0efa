// SPDX-License-Identifier: Apache-2.0
import CThumbKit
import Foundation
import Testing
import ThumbKitQuality
import ThumbKitTestSupport

@testable import ThumbKit

/// The acceptance test of colour management: a photo converted at test time into a standard
/// profile (Adobe RGB, ProPhoto, Display P3, a CMYK press profile) and saved with that profile
/// embedded must thumbnail like Little CMS's own conversion of the same file to sRGB (relative
/// colorimetric), within CIEDE2000 mean ≤ 1.5 and 95th percentile ≤ 6. The same pixels read
/// without their profile must miss that reference by clearly more, or the test proves nothing.
struct ColorFidelityTests {
    // 44×44 from a 256×256 photo: JPEGs decode at 3/8 (shrink-on-load), PNGs in full.
    static let request = ThumbnailRequest(resize: ResizeOptions(width: 44, height: 44))
    static let spaces = [ColorFixtures.adobeRGB, ColorFixtures.proPhoto, ColorFixtures.displayP3]

    static func thumbnail(_ data: [UInt8]) throws -> PixelBuffer {
        try Thumbnailer.make(from: data, path: "test", request: request).images[0].image
    }

    /// The thumbnail of Little CMS's conversion to sRGB of the pixels `data` stores.
    static func reference(stored: [UInt8], width: Int, height: Int) throws -> PixelBuffer {
        let file = try ImageEncoders.encode(
            PixelBuffer(width: width, height: height, pixels: stored), options: EncodeOptions(format: .png))
        return try thumbnail(file)
    }

    @Test(.needsCorpus, .tags(.corpus), arguments: spaces, [ImageFormat.jpeg, .png])
    func profiledPhotoThumbnailsLikeLittleCMSsOwnConversion(
        _ space: ColorFixtures.Space, _ format: ImageFormat
    ) throws {
        guard TestCorpus.requireCorpus() else { return }
        // Given the photo in `space`, saved with that profile embedded.
        let photo = try ColorFixtures.photo()
        let icc = ColorFixtures.icc(space)
        let inSpace = ColorFixtures.convert(
            photo.pixels, from: nil, format: ColorFixtures.rgba8, to: icc, format: ColorFixtures.rgba8)
        let buffer = PixelBuffer(width: photo.width, height: photo.height, pixels: inSpace)
        func file(embedding icc: [UInt8]?) throws -> [UInt8] {
            switch format {
            case .jpeg:
                return ColorFixtures.jpeg(inSpace, width: photo.width, height: photo.height, cmyk: false, icc: icc)
            case .png:
                return try ImageEncoders.encode(
                    buffer, options: EncodeOptions(format: .png), profile: icc.map { ColorProfile(iccData: $0) })
            case .webp, .heic, .avif:
                Issue.record("PNG and JPEG only (ModernFormatEncodeTests covers the others)")
                return []
            }
        }
        let tagged = try file(embedding: icc)

        // When ThumbKit thumbnails it, and Little CMS converts what the file stores.
        let managed = try Self.thumbnail(tagged)
        let stored = try ImageDecoders.decode(
            tagged, path: "tagged", options: DecodeOptions(color: ColorOptions(keepProfile: true)))
        #expect(stored.colorProfile == ColorProfile(iccData: icc))
        let converted = ColorFixtures.convert(
            stored.buffer.pixels, from: icc, format: ColorFixtures.rgba8, to: nil, format: ColorFixtures.rgba8)
        let reference = try Self.reference(stored: converted, width: photo.width, height: photo.height)

        // Then they match, and ignoring the profile would not.
        let managedDifference = try ColorDifference.summary(reference, managed)
        let ignored = try ColorDifference.summary(reference, try Self.thumbnail(try file(embedding: nil)))
        print(
            "\(space) \(format): ΔE00 mean \(managedDifference.mean), p95 \(managedDifference.p95);"
                + " untagged mean \(ignored.mean)"
        )
        #expect(managedDifference.mean <= 1.5)
        #expect(managedDifference.p95 <= 6)
        #expect(ignored.mean > managedDifference.mean + 1)
    }

    @Test(.needsCorpus, .needs(ColorFixtures.press), .tags(.corpus))
    func cmykPhotoThumbnailsLikeLittleCMSsOwnConversion() throws {
        guard TestCorpus.requireCorpus() else { return }
        guard let press = ColorFixtures.pressProfile() else { return }
        // Given the photo in press CMYK, stored the Adobe way (255 − ink) with the profile.
        let photo = try ColorFixtures.photo()
        let cmyk = ColorFixtures.convert(
            photo.pixels, from: nil, format: ColorFixtures.rgba8, to: press, format: ColorFixtures.cmyk8Reversed)
        let tagged = ColorFixtures.jpeg(cmyk, width: photo.width, height: photo.height, cmyk: true, icc: press)

        // When ThumbKit thumbnails it, and Little CMS converts the CMYK the file stores.
        let managed = try Self.thumbnail(tagged)
        let header = try ImageDecoders.JPEG.readHeader(tagged, path: "cmyk")
        #expect(header.isCMYK && header.isAdobe)
        let stored = try Self.storedCMYK(tagged, width: photo.width, height: photo.height)
        let converted = ColorFixtures.convert(
            stored, from: press, format: ColorFixtures.cmyk8Reversed, to: nil, format: ColorFixtures.rgba8)
        let reference = try Self.reference(stored: converted, width: photo.width, height: photo.height)

        // Then they match; the built-in fallback (no profile) is clearly further off.
        let managedDifference = try ColorDifference.summary(reference, managed)
        let untagged = ColorFixtures.jpeg(cmyk, width: photo.width, height: photo.height, cmyk: true, icc: nil)
        let fallback = try ColorDifference.summary(reference, try Self.thumbnail(untagged))
        print("CMYK: ΔE00 mean \(managedDifference.mean), p95 \(managedDifference.p95); fallback mean \(fallback.mean)")
        #expect(managedDifference.mean <= 1.5)
        #expect(managedDifference.p95 <= 6)
        #expect(fallback.mean > managedDifference.mean + 1)
    }

    /// The CMYK bytes a JPEG stores, decoded at full size by the shim (no colour conversion).
    static func storedCMYK(_ data: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        try ImageDecoders.JPEG.decodeWithLibjpeg(
            data, path: "cmyk.jpg", options: DecodeOptions(), width: width, height: height, scaleNumerator: 8,
            blockSmoothing: true, deadline: .never
        ).pixels
    }
}
