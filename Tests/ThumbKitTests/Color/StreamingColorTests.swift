// SPDX-License-Identifier: Apache-2.0
import CThumbKit
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// The row-by-row paths (PNG always, JPEG in a one-thread render) against the whole-image path
/// (a render with two threads decodes whole and resamples in parallel) on files whose colours
/// need work: embedded RGB, gray and CMYK profiles, a PNG gAMA next to its iCCP, progressive
/// files served by the DC fast path, and `keepProfile`. The rows are converted one by one, the
/// whole image at once; the thumbnails, profiles and warnings must be identical.
struct StreamingColorTests {
    static let variants = [
        ResizeOptions(width: 88, height: 88, mode: .fill), ResizeOptions(width: 200, height: 150, mode: .fit),
    ]

    static func expectBothPathsAgree(_ data: [UInt8], name: String, color: ColorOptions = ColorOptions()) throws {
        let options = DecodeOptions(color: color)
        let streamed = try Thumbnailer.render(data, path: name, variants: variants, decode: options, threads: 1)
        let whole = try Thumbnailer.render(data, path: name, variants: variants, decode: options, threads: 2)
        for (a, b) in zip(streamed.images, whole.images) {
            #expect(firstMismatch(a.pixels, b.pixels) == nil, "\(name): streamed rows differ from the whole-image path")
        }
        #expect(streamed.colorProfile == whole.colorProfile, "\(name): profile")
        #expect(streamed.warnings == whole.warnings, "\(name): warnings")
    }

    /// A JPEG of `pixels` (4 bytes a pixel), progressive or not, with `icc` embedded.
    static func jpeg(_ image: PixelBuffer, cmyk: Bool, progressive: Bool, icc: [UInt8]?) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var err = [CChar](repeating: 0, count: Int(TK_ERR_LEN))
        let iccBytes = icc ?? []
        let rc = image.pixels.withUnsafeBufferPointer { px in
            iccBytes.withUnsafeBufferPointer { ic in
                tk_jpeg_encode_color(
                    px.baseAddress, UInt32(image.width), UInt32(image.height), 4, cmyk ? 1 : 0, 90, 1,
                    progressive ? 1 : 0, 1, icc == nil ? nil : ic.baseAddress, iccBytes.count, &out, &size, &err)
            }
        }
        precondition(rc == 0, "test JPEG encode failed")
        defer { tk_free(out) }
        return [UInt8](UnsafeBufferPointer(start: out, count: size))
    }

    @Test(.needsCorpus, .tags(.corpus)) func taggedJPEGsGiveTheSameThumbnailsRowByRow() throws {
        guard TestCorpus.requireCorpus() else { return }
        let photo = try ColorFixtures.photo()
        let adobe = ColorFixtures.icc(ColorFixtures.adobeRGB)
        for progressive in [false, true] {
            let name = progressive ? "adobe-progressive.jpg" : "adobe.jpg"
            let file = Self.jpeg(photo, cmyk: false, progressive: progressive, icc: adobe)
            try Self.expectBothPathsAgree(file, name: name)
            try Self.expectBothPathsAgree(file, name: name, color: ColorOptions(keepProfile: true))
            // A 16×16 thumbnail of the 256×256 photo decodes at 1/8: the progressive DC fast path.
            let tiny = ResizeOptions(width: 16, height: 16, mode: .fill)
            let alone = try Thumbnailer.render(file, path: name, variants: [tiny], threads: 1)
            let whole = try Thumbnailer.render(file, path: name, variants: [tiny], threads: 2)
            #expect(firstMismatch(alone.images[0].pixels, whole.images[0].pixels) == nil, "\(name) at 1/8")
            #expect(alone.scaleNumerator == 1)
            // And the profile really changed the pixels (else this test would prove nothing).
            let managed = try Thumbnailer.render(file, path: name, variants: Self.variants, threads: 1)
            let kept = try Thumbnailer.render(
                file, path: name, variants: Self.variants,
                decode: DecodeOptions(color: ColorOptions(keepProfile: true)),
                threads: 1)
            #expect(managed.colorProfile == nil && kept.colorProfile != nil)
            #expect(firstMismatch(managed.images[0].pixels, kept.images[0].pixels) != nil)
        }
    }

    @Test(.needsCorpus, .needs(ColorFixtures.press), .tags(.corpus))
    func cmykAndGrayJPEGsGiveTheSameThumbnailsRowByRow() throws {
        guard TestCorpus.requireCorpus(), let press = ColorFixtures.pressProfile() else { return }
        let photo = try ColorFixtures.photo()
        // Inverted CMYK as Photoshop stores it; with and without a CMYK profile (the fallback).
        let inks = photo.pixels.enumerated().map { (i: Int, v: UInt8) -> UInt8 in i % 4 == 3 ? 200 : 255 - v / 2 }
        let cmyk = PixelBuffer(width: photo.width, height: photo.height, pixels: inks)
        for progressive in [false, true] {
            try Self.expectBothPathsAgree(
                Self.jpeg(cmyk, cmyk: true, progressive: progressive, icc: press), name: "cmyk-tagged.jpg")
            try Self.expectBothPathsAgree(
                Self.jpeg(cmyk, cmyk: true, progressive: progressive, icc: nil), name: "cmyk-untagged.jpg")
        }
        let gray = (0..<(120 * 90)).map { (i: Int) -> UInt8 in UInt8((i % 120) * 2 + (i / 120) % 16) }
        try Self.expectBothPathsAgree(
            ColorFixtures.grayJPEG(gray, width: 120, height: 90, icc: ColorFixtures.grayICC(gamma: 1.0)),
            name: "gray-linear.jpg")
    }

    @Test(.needsCorpus, .tags(.corpus)) func taggedPNGsGiveTheSameThumbnailsRowByRow() throws {
        guard TestCorpus.requireCorpus() else { return }
        let photo = try ColorFixtures.photo()
        let p3 = ColorFixtures.icc(ColorFixtures.displayP3)
        // With a gAMA chunk libpng corrects the values before the profile applies (preExponent).
        for gamma: UInt32? in [nil, 45455, 100000] {
            try Self.expectBothPathsAgree(
                ColorFixtures.png(photo, icc: p3, gamma: gamma), name: "p3-\(gamma ?? 0).png")
        }
    }
}
