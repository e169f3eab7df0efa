// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// `Gravity.smart` on pictures whose subject is known: the window it picks holds the subject,
/// where the centred window would not.
struct SmartCropTests {
    /// A gently noisy grey background (a fixed LCG, so every run sees the same pixels).
    static func background(width: Int, height: Int, seed: UInt32 = 1) -> PixelBuffer {
        var image = PixelBuffer(width: width, height: height)
        var state = seed
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let v = UInt8(120 + Int(state >> 29))  // 120...127
                image[x, y] = RGBA(v, v, v)
            }
        }
        return image
    }

    /// Paints a `size` × `size` red and blue checkerboard of 3-pixel squares at (`x`, `y`).
    static func paintSubject(_ image: inout PixelBuffer, x: Int, y: Int, size: Int) {
        for j in 0..<size {
            for i in 0..<size {
                image[x + i, y + j] = (i / 3 + j / 3) % 2 == 0 ? RGBA(220, 30, 30) : RGBA(30, 30, 200)
            }
        }
    }

    /// The source rectangle a smart fill of `box` takes from `image` (upright, decoded at full size).
    static func smartRect(_ image: PixelBuffer, box: (Int, Int), upscale: Bool = true) -> SourceRect {
        let options = ResizeOptions(width: box.0, height: box.1, upscale: upscale, gravity: .smart)
        let resolved = ImageProcessors.Resize.resolvingSmart(
            options, originalWidth: image.width, originalHeight: image.height, pixels: image)
        #expect(!resolved.gravity.isSmart)
        return CropGeometry.plan(sourceWidth: image.width, sourceHeight: image.height, options: resolved).sourceRect
    }

    static func centreRect(_ image: PixelBuffer, box: (Int, Int), upscale: Bool = true) -> SourceRect {
        CropGeometry.plan(
            sourceWidth: image.width, sourceHeight: image.height,
            options: ResizeOptions(width: box.0, height: box.1, upscale: upscale)
        ).sourceRect
    }

    /// True when `rect` holds the whole square at (`x`, `y`) of side `size` (a pixel of slack for
    /// the map's cells).
    static func contains(_ rect: SourceRect, x: Int, y: Int, size: Int) -> Bool {
        rect.x <= Double(x) + 1 && rect.x + rect.width >= Double(x + size) - 1 && rect.y <= Double(y) + 1
            && rect.y + rect.height >= Double(y + size) - 1
    }

    @Test(arguments: [
        // (image size, subject at, subject side, box)
        ((600, 200), (520, 80), 40, (100, 100)),  // near the right edge of a landscape
        ((600, 200), (30, 20), 40, (100, 100)),  // near the left edge
        ((600, 200), (360, 100), 50, (90, 90)),  // right of centre, not at an edge
        ((200, 600), (80, 500), 40, (100, 100)),  // near the bottom of a portrait
        ((200, 600), (100, 10), 60, (50, 50)),  // at the top
        ((1600, 400), (1400, 200), 120, (64, 64)),  // larger than the map: cells of 10 pixels
    ])
    func theWindowHoldsTheSubjectTheCentreMisses(
        size: (Int, Int), at: (Int, Int), side: Int, box: (Int, Int)
    ) {
        var image = Self.background(width: size.0, height: size.1)
        Self.paintSubject(&image, x: at.0, y: at.1, size: side)
        let smart = Self.smartRect(image, box: box)
        #expect(Self.contains(smart, x: at.0, y: at.1, size: side), "\(smart)")
        #expect(!Self.contains(Self.centreRect(image, box: box), x: at.0, y: at.1, size: side))
    }

    /// Without upscaling a source smaller than the box on one side keeps scale 1 and is
    /// cropped on the other (240×40 into 60×60 is 60×40 of the 240): the window moves there.
    @Test func withoutUpscalingTheWindowMovesInSourcePixels() {
        var image = Self.background(width: 240, height: 40, seed: 7)
        Self.paintSubject(&image, x: 196, y: 8, size: 24)
        let smart = Self.smartRect(image, box: (60, 60), upscale: false)
        #expect(smart.width == 60 && smart.height == 40)
        #expect(Self.contains(smart, x: 196, y: 8, size: 24), "\(smart)")
        #expect(!Self.contains(Self.centreRect(image, box: (60, 60), upscale: false), x: 196, y: 8, size: 24))
    }

    /// Flat skin tone, with no texture and little saturation, still draws the window.
    @Test func skinToneDrawsTheWindow() {
        var image = PixelBuffer(width: 400, height: 100, fill: RGBA(90, 90, 90))
        for y in 20..<80 { for x in 20..<80 { image[x, y] = RGBA(224, 172, 140) } }
        #expect(AttentionMap.isSkin(224, 172, 140) && !AttentionMap.isSkin(90, 90, 90))
        let smart = Self.smartRect(image, box: (100, 100))
        #expect(Self.contains(smart, x: 20, y: 20, size: 60), "\(smart)")
    }

    /// A subject inside a transparent area draws nothing: the window goes to the opaque one.
    @Test func transparentPixelsDrawNothing() {
        var image = Self.background(width: 600, height: 200, seed: 3)
        Self.paintSubject(&image, x: 20, y: 80, size: 40)  // to be made transparent
        Self.paintSubject(&image, x: 500, y: 80, size: 40)
        for y in 0..<200 { for x in 0..<200 { image.pixels[(y * 600 + x) * 4 + 3] = 0 } }
        let smart = Self.smartRect(image, box: (100, 100))
        #expect(Self.contains(smart, x: 500, y: 80, size: 40), "\(smart)")
    }

    /// Nothing to see (a flat image): the search keeps the centred window.
    @Test func aFlatImageStaysCentred() {
        let flat = PixelBuffer(width: 600, height: 200, fill: RGBA(40, 80, 120))
        #expect(Self.smartRect(flat, box: (100, 100)) == Self.centreRect(flat, box: (100, 100)))
    }

    @Test func theChoiceIsTheSameEveryTime() {
        var image = Self.background(width: 900, height: 300, seed: 11)
        Self.paintSubject(&image, x: 600, y: 30, size: 90)
        Self.paintSubject(&image, x: 100, y: 200, size: 60)
        let first = Self.smartRect(image, box: (120, 120))
        for _ in 0..<3 { #expect(Self.smartRect(image, box: (120, 120)) == first) }
        // The bigger subject wins.
        #expect(Self.contains(first, x: 600, y: 30, size: 90), "\(first)")
    }

    /// Through the whole pipeline from an encoded PNG (which streams rows unless a smart crop
    /// needs the whole image): the thumbnail shows the subject, the centred one does not.
    @Test func thumbnailerRendersTheSmartWindow() throws {
        var image = Self.background(width: 600, height: 200, seed: 5)
        Self.paintSubject(&image, x: 530, y: 60, size: 60)
        let png = try ImageEncoders.encode(image, options: EncodeOptions(format: .png))
        let rendered = try Thumbnailer.render(
            png, path: "subject.png",
            variants: [ResizeOptions(width: 50, height: 50, gravity: .smart), ResizeOptions(width: 50, height: 50)])
        // The checkerboard averages to purple at this scale; the background is grey.
        func subjectPixels(_ out: PixelBuffer) -> Int {
            (0..<out.pixelCount).filter { out.pixels[$0 * 4] > 90 && out.pixels[$0 * 4 + 1] < 80 }.count
        }
        #expect(subjectPixels(rendered.images[0]) > 100)
        #expect(subjectPixels(rendered.images[1]) == 0)
    }

    /// The map is made of the stored pixels with the box turned to match: whatever the EXIF
    /// orientation, the upright thumbnail shows the subject.
    @Test(arguments: ExifOrientation.allCases)
    func theSubjectIsFoundWhateverTheOrientation(orientation: ExifOrientation) {
        var upright = Self.background(width: 600, height: 200, seed: 9)
        for y in 60..<140 { for x in 500..<580 { upright[x, y] = RGBA(230, 20, 20) } }
        let stored = upright.applying(CropGeometryGravityTests.inverse(orientation))
        let out = ImageProcessors.Resize(ResizeOptions(width: 50, height: 50, kernel: .box, gravity: .smart))
            .process(stored, originalWidth: stored.width, originalHeight: stored.height, orientation: orientation)
        let red = (0..<out.pixelCount).filter { out.pixels[$0 * 4] > 200 && out.pixels[$0 * 4 + 1] < 40 }.count
        #expect(out.width == 50 && out.height == 50)
        #expect(red > 300, "\(orientation): \(red) red pixels")
    }

    /// A smart fill decodes whole (it is not streamed), and the batch's memory estimate says so:
    /// a baseline JPEG, 0 when streamed, is its decoded size at the shrink-on-load scale.
    @Test func theMemoryEstimateCountsTheWholeDecodedImage() throws {
        let jpeg = try ImageEncoders.encode(
            Self.background(width: 640, height: 320), options: EncodeOptions(format: .jpeg))
        let source = try ImageSource(jpeg, path: "a.jpg")
        let centred = Thumbnailer.decodeMemoryEstimate(
            source, variants: [ResizeOptions(width: 40, height: 40)], decode: DecodeOptions())
        let smart = Thumbnailer.decodeMemoryEstimate(
            source, variants: [ResizeOptions(width: 40, height: 40, gravity: .smart)], decode: DecodeOptions())
        #expect(centred == 0)
        // 40 of 320 rows with a margin of 2 needs 1/4: decoded 160×80.
        #expect(smart == 160 * 80 * 4)
    }

    /// A real photograph put on a flat canvas beside a blank area: the window finds the photo.
    @Test(.needsCorpus) func aRealPhotoOnAPlainCanvasIsFound() throws {
        guard TestCorpus.requireCorpus() else { return }
        let data = try TestCorpus.bytes(of: "photos/astronaut.png")
        let photo = try ImageDecoders.decode(data, path: "astronaut.png").buffer
        let (w, h) = (photo.width, photo.height)  // 512×512
        var canvas = PixelBuffer(width: w * 3, height: h, fill: RGBA(128, 128, 128))
        for y in 0..<h {
            for x in 0..<w { canvas[2 * w + x, y] = photo[x, y] }
        }
        let smart = Self.smartRect(canvas, box: (128, 128))
        // The window is one photo wide: it must lie (almost) entirely on the photo.
        #expect(smart.x >= Double(2 * w) - 16, "\(smart)")
        #expect(Self.centreRect(canvas, box: (128, 128)).x == Double(w))
    }

    /// The attention map walks every decoded pixel, so it checks the deadline after each row of
    /// cells: with the deadline passed it stops and the window stays centred (the thumbnailer's
    /// check after resizing then discards the image with the time-limit error).
    @Test func aPassedDeadlineStopsTheAttentionMap() {
        var image = Self.background(width: 600, height: 200, seed: 3)
        Self.paintSubject(&image, x: 530, y: 60, size: 60)
        let passed = Deadline(nanoseconds: 1, seconds: 1)
        #expect(passed.hasPassed)
        let stopped = AttentionMap(image, deadline: passed)
        #expect(!stopped.isComplete && stopped.scores.allSatisfy { $0 == 0 })
        #expect(AttentionMap(image).isComplete)
        let centred = SmartCrop.anchor(in: image, windowWidth: 1.0 / 3, windowHeight: 1, deadline: passed)
        #expect(centred.x == 0.5 && centred.y == 0.5)
        #expect(SmartCrop.anchor(in: image, windowWidth: 1.0 / 3, windowHeight: 1).x > 0.8)
    }
}
