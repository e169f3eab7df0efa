// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import ThumbKit
@testable import ThumbKitQuality

struct ReferenceResamplerTests {
    /// A small image with every channel varying and some transparency, from a fixed seed.
    private static func noise(width: Int, height: Int, seed: UInt64) -> PixelBuffer {
        var state = seed
        var pixels: [UInt8] = []
        for _ in 0..<(width * height) {
            for channel in 0..<4 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let value = UInt8(truncatingIfNeeded: state >> 56)
                pixels.append(channel == 3 ? max(value, 40) : value)
            }
        }
        return PixelBuffer(width: width, height: height, pixels: pixels)
    }

    /// An independent Lanczos3: sinc(x)·sinc(x/3) for |x| < 3.
    private static func lanczos(_ x: Double) -> Double {
        if x == 0 { return 1 }
        if abs(x) >= 3 { return 0 }
        func sinc(_ t: Double) -> Double { sin(Double.pi * t) / (Double.pi * t) }
        return sinc(x) * sinc(x / 3)
    }

    /// Normalised weights of every source index for output `i` of one axis, by Pillow's rule.
    private static func axisWeights(count: Int, origin: Double, span: Double, outputs: Int, i: Int) -> [Double] {
        let scale = span / Double(outputs)
        let filterScale = max(scale, 1)
        let centre = origin + (Double(i) + 0.5) * scale
        let support = 3 * filterScale
        let lo = max(0, Int(floor(centre - support + 0.5)))
        let hi = min(count, Int(floor(centre + support + 0.5)))
        var weights = [Double](repeating: 0, count: count)
        for j in lo..<hi { weights[j] = lanczos((Double(j) - centre + 0.5) / filterScale) }
        let total = weights.reduce(0, +)
        return weights.map { $0 / total }
    }

    /// The same resampling as one direct 2-D sum per output pixel, premultiplied in Double.
    private static func direct(_ image: PixelBuffer, rect: SourceRect, width: Int, height: Int) -> PixelBuffer {
        var out: [UInt8] = []
        for oy in 0..<height {
            let wy = axisWeights(count: image.height, origin: rect.y, span: rect.height, outputs: height, i: oy)
            for ox in 0..<width {
                let wx = axisWeights(count: image.width, origin: rect.x, span: rect.width, outputs: width, i: ox)
                var sums = [0.0, 0.0, 0.0, 0.0]
                for y in 0..<image.height where wy[y] != 0 {
                    for x in 0..<image.width where wx[x] != 0 {
                        let p = image[x, y]
                        let a = Double(p.a) / 255
                        let w = wx[x] * wy[y]
                        sums[0] += w * Double(p.r) / 255 * a
                        sums[1] += w * Double(p.g) / 255 * a
                        sums[2] += w * Double(p.b) / 255 * a
                        sums[3] += w * a
                    }
                }
                let alpha = min(max(sums[3], 0), 1)
                for c in 0..<3 {
                    out.append(alpha > 0 ? UInt8((min(max(sums[c] / sums[3], 0), 1) * 255).rounded()) : 0)
                }
                out.append(UInt8((alpha * 255).rounded()))
            }
        }
        return PixelBuffer(width: width, height: height, pixels: out)
    }

    @Test(arguments: [
        (ResizeOptions(width: 4, height: 3, mode: .fill), 13, 7),
        (ResizeOptions(width: 5, height: 5, mode: .fit), 17, 11),
        (ResizeOptions(width: 3, height: 9, mode: .fill), 10, 10),
        (ResizeOptions(width: 12, height: 8, mode: .stretch), 6, 5),
    ])
    func theReferenceMatchesADirectTwoDimensionalSum(options: ResizeOptions, width: Int, height: Int) throws {
        let image = Self.noise(width: width, height: height, seed: UInt64(width * 31 + height))
        let geometry = CropGeometry.plan(sourceWidth: width, sourceHeight: height, options: options)
        let expected = Self.direct(
            image, rect: geometry.sourceRect, width: geometry.outputWidth, height: geometry.outputHeight)
        let reference = ReferenceResampler.render(image, options: options)
        #expect(reference.width == expected.width && reference.height == expected.height)
        // The separable sum adds in another order: a value on a rounding edge may land one level off.
        #expect(try ImageComparison.maximumAbsoluteDifference(reference, expected) <= 1)
        let differing = zip(reference.pixels, expected.pixels).filter { $0 != $1 }.count
        #expect(differing <= reference.pixels.count / 50)
    }

    @Test func aConstantImageStaysExactlyThatColourInBothDomains() {
        let flat = PixelBuffer(width: 40, height: 30, fill: RGBA(200, 100, 37))
        for linear in [false, true] {
            let out = ReferenceResampler.render(
                flat, options: ResizeOptions(width: 9, height: 9, mode: .fill), linearLight: linear)
            #expect(out.width == 9 && out.height == 9)
            #expect(
                Set(stride(from: 0, to: out.pixels.count, by: 4).map { out[($0 / 4) % 9, ($0 / 4) / 9] }) == [
                    RGBA(200, 100, 37)
                ])
        }
    }

    @Test func halvingBlackAndWhiteStripesGivesMidGreyInSRGBAndLinearLight() {
        // Columns alternate 0 and 255; each output pixel sits between a black and a white column
        // with symmetric taps, so away from the edges it is exactly their average: 127.5 → 128
        // in the encoded domain, and linear 0.5 → sRGB 0.7354 → 188 in linear light.
        var stripes = PixelBuffer(width: 48, height: 4, fill: .black)
        for y in 0..<4 {
            for x in stride(from: 1, to: 48, by: 2) {
                stripes.pixels.replaceSubrange((y * 48 + x) * 4..<(y * 48 + x) * 4 + 3, with: [255, 255, 255])
            }
        }
        let options = ResizeOptions(width: 24, height: 4, mode: .stretch)
        let encoded = ReferenceResampler.render(stripes, options: options)
        let linear = ReferenceResampler.render(stripes, options: options, linearLight: true)
        #expect(encoded[12, 2] == RGBA(128, 128, 128))
        #expect(linear[12, 2] == RGBA(188, 188, 188))
    }

    @Test func aFillCropUsesTheCentreOfTheSource() {
        // Thirds of a 300×30 strip: red, blue, green. A 3×3 fill covers x 135…165 at 10 source
        // pixels per output pixel, so its taps (±30) never leave the blue third; a fit covers
        // the whole strip.
        var strip = PixelBuffer(width: 300, height: 30, fill: RGBA(0, 0, 255))
        for y in 0..<30 {
            for x in 0..<100 {
                strip.pixels.replaceSubrange((y * 300 + x) * 4..<(y * 300 + x) * 4 + 4, with: [255, 0, 0, 255])
                strip.pixels.replaceSubrange(
                    (y * 300 + x + 200) * 4..<(y * 300 + x + 200) * 4 + 4, with: [0, 255, 0, 255])
            }
        }
        let fill = ReferenceResampler.render(strip, options: ResizeOptions(width: 3, height: 3, mode: .fill))
        #expect(fill.width == 3 && fill.height == 3)
        #expect(Set((0..<9).map { fill[$0 % 3, $0 / 3] }) == [RGBA(0, 0, 255)])
        let fit = ReferenceResampler.render(strip, options: ResizeOptions(width: 3, height: 3, mode: .fit))
        #expect(fit.width == 3 && fit.height == 1)
        #expect(fit[0, 0].r > fit[2, 0].r && fit[2, 0].g > fit[0, 0].g && fit[1, 0].b > fit[0, 0].b)
    }
}
