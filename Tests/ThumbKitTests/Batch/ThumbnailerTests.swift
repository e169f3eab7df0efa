// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitQuality
import ThumbKitTestSupport

@testable import ThumbKit

/// The optimised thumbnail path (progressive DC fast path, PNG rows streamed into the
/// resampler) against the straightforward one it replaced: libjpeg or the libpng simplified API
/// decodes the whole file into a buffer, then the buffer is resized.
///
/// Bound: at most one 8-bit level per channel. Both optimisations are exact by construction
/// (the fast path is pixel-identical to libjpeg's whole-file decode, and streamed rows are summed
/// in the buffer path's order), so the measured difference is 0; one level is what the
/// resampler's own reference test allows, far below what anyone can see (SSIM stays above 0.999).
struct ThumbnailerTests {
    static let boxes = [
        ResizeOptions(width: 88, height: 88, mode: .fill),
        ResizeOptions(width: 256, height: 256, mode: .fit),
        ResizeOptions(width: 40, height: 30, mode: .pad, background: RGBA(255, 255, 255)),
    ]

    /// The straightforward path: whole-file decode (no fast path, no streaming), then resize.
    /// Block smoothing as before the fast path (on), except at 1/8, where progressive files are
    /// now always decoded without it (see ImageDecoders+ProgressiveDC.swift).
    static func reference(_ data: [UInt8], path: String, variants: [ResizeOptions], margin: Double = 2) throws
        -> [PixelBuffer]
    {
        let header = try ImageDecoders.readHeader(data, path: path)
        // One decode serves every variant, at the scale the most demanding one needs.
        let scale = variants.map {
            ImageProcessors.Resize($0).minimumLoadScale(
                originalWidth: header.width, originalHeight: header.height, orientation: header.orientation,
                margin: margin)
        }.max()!
        let buffer: PixelBuffer
        let numerator: Int
        if header.format == .png {
            buffer = try ImageDecoders.PNG.decode(ImageSource(data, path: path), options: DecodeOptions()).buffer
            numerator = 8
        } else {
            numerator = ImageDecoders.scaleNumerator(forMinimumScale: scale)
            let pixels = try #require(
                ImageDecoders.JPEG.libjpegDecode(
                    data, width: header.width, height: header.height, scaleNumerator: numerator,
                    blockSmoothing: numerator != 1, failOnWarning: false))
            buffer = PixelBuffer(
                width: ImageDecoders.scaledLength(header.width, numerator: numerator),
                height: ImageDecoders.scaledLength(header.height, numerator: numerator), pixels: pixels)
        }
        return variants.map {
            ImageProcessors.Resize($0).process(
                buffer, originalWidth: header.width, originalHeight: header.height, loadScale: Double(numerator) / 8,
                orientation: header.orientation)
        }
    }

    static func check(_ data: [UInt8], path: String, variants: [ResizeOptions] = boxes) throws {
        let rendered = try Thumbnailer.render(data, path: path, variants: variants)
        let expected = try reference(data, path: path, variants: variants)
        for (variant, (image, reference)) in zip(variants, zip(rendered.images, expected)) {
            #expect(image.width == reference.width && image.height == reference.height, "\(path) \(variant.identifier)")
            let worst = try ImageComparison.maximumAbsoluteDifference(image, reference)
            #expect(worst <= 1, "\(path) \(variant.identifier): max difference \(worst)")
            let ssim = try ImageComparison.ssim(image, reference)
            #expect(ssim >= 0.999, "\(path) \(variant.identifier): SSIM \(ssim)")
        }
    }

    @Test func generatedImagesMatchTheStraightforwardPath() throws {
        // A translucent gradient PNG (alpha, streamed rows) and progressive JPEGs (fast path).
        var image = PixelBuffer(width: 301, height: 177)
        for y in 0..<177 {
            for x in 0..<301 {
                image[x, y] = RGBA(
                    UInt8(x * 255 / 300), UInt8(y * 255 / 176), UInt8((x ^ y) & 255), UInt8(60 + (x + y) % 196))
            }
        }
        let png = try ImageEncoders.encode(image, options: EncodeOptions(format: .png))
        try Self.check(png, path: "gradient.png")
        for name in ["ycc444-progressive-split-dc-q100-75x53.jpg", "ycc420-progressive-75x53.jpg"] {
            try Self.check(try TestImages.bytes(of: name), path: name)
        }
    }

    @Test(
        .needsCorpus, .tags(.corpus),
        arguments: [
            "photos/plasma_ColorfulCups_2560x1600.jpg", "photos/lomiri16_friends_by_Aitzol_Berasategi.jpg",
            "photos/chelsea.png", "pngsuite/basn6a16.png", "pngsuite/tbrn2c08.png",
        ])
    func corpusImagesMatchTheStraightforwardPath(_ path: String) throws {
        guard TestCorpus.requireCorpus() else { return }
        let data = try TestCorpus.bytes(of: path)
        try Self.check(data, path: path)
        try Self.check(data, path: path, variants: [Self.boxes[0]])  // alone: JPEGs decode at 1/8
    }
}
