// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import ThumbKit

/// Checks the unsafe, Float resampler against a slow, safe, Double reference that evaluates
/// the 2-D kernel directly for every output pixel.
struct ResamplerTests {
    /// A reproducible pseudo-random RGBA image (a small LCG, so no seed API is needed).
    static func noise(width: Int, height: Int, seed: UInt32, opaque: Bool = false) -> PixelBuffer {
        var state = seed
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<bytes.count {
            state = state &* 1_664_525 &+ 1_013_904_223
            bytes[i] = UInt8(truncatingIfNeeded: state >> 24)
            if opaque && i % 4 == 3 { bytes[i] = 255 }
        }
        return PixelBuffer(width: width, height: height, pixels: bytes)
    }

    /// Reference: premultiplied, separable weights from the kernel in Double, dropped outside
    /// the source and renormalised, no box pre-shrink (so only for reductions under 4×).
    static func reference(
        _ src: PixelBuffer, rect: SourceRect, width: Int, height: Int, kernel: ResampleKernel
    ) -> PixelBuffer {
        func axisWeights(_ inCount: Int, _ origin: Double, _ span: Double, _ outCount: Int) -> [[(Int, Double)]] {
            let step = span / Double(outCount)
            let fscale = max(1, step)
            let support = kernel.support * fscale
            return (0..<outCount).map { i in
                let centre = origin + (Double(i) + 0.5) * step
                var taps: [(Int, Double)] = []
                for j in 0..<inCount where abs(Double(j) + 0.5 - centre) < support + 1 {
                    let w = kernel.weight(at: (Double(j) + 0.5 - centre) / fscale)
                    if w != 0 { taps.append((j, w)) }
                }
                if taps.isEmpty { taps = [(min(max(Int(centre.rounded(.down)), 0), inCount - 1), 1)] }
                let total = taps.reduce(0) { $0 + $1.1 }
                return taps.map { ($0.0, $0.1 / total) }
            }
        }
        let wx = axisWeights(src.width, rect.x, rect.width, width)
        let wy = axisWeights(src.height, rect.y, rect.height, height)
        var out = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                var acc = [0.0, 0.0, 0.0, 0.0]
                for (sy, vy) in wy[y] {
                    for (sx, vx) in wx[x] {
                        let p = src[sx, sy]
                        let a = Double(p.a) / 255
                        let w = vx * vy
                        acc[0] += w * Double(p.r) / 255 * a
                        acc[1] += w * Double(p.g) / 255 * a
                        acc[2] += w * Double(p.b) / 255 * a
                        acc[3] += w * a
                    }
                }
                let a = min(max(acc[3], 0), 1)
                let alpha = UInt8((a * 255).rounded())
                if alpha == 0 {
                    out[x, y] = .transparent
                    continue
                }
                func channel(_ v: Double) -> UInt8 { UInt8(min(max(v / a, 0), 1) * 255 + 0.5) }
                out[x, y] = RGBA(channel(acc[0]), channel(acc[1]), channel(acc[2]), alpha)
            }
        }
        return out
    }

    static func maxDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test(arguments: ResampleKernel.allCases)
    func matchesTheReferenceWithinOneLevel(_ kernel: ResampleKernel) {
        let src = Self.noise(width: 23, height: 17, seed: 7)
        let cases: [(SourceRect, Int, Int)] = [
            (SourceRect(x: 0, y: 0, width: 23, height: 17), 11, 9),  // reduce ~2×
            (SourceRect(x: 3.25, y: 1.5, width: 15.5, height: 12), 7, 6),  // fractional crop
            (SourceRect(x: 0, y: 0, width: 23, height: 17), 40, 31),  // enlarge
            (SourceRect(x: 0, y: 0, width: 23, height: 17), 23, 17),  // same size
        ]
        for (rect, w, h) in cases {
            let fast = Resampler.resample(src, rect: rect, width: w, height: h, kernel: kernel, linearLight: false)
            let slow = Self.reference(src, rect: rect, width: w, height: h, kernel: kernel)
            #expect(Self.maxDifference(fast, slow) <= 1, "\(kernel) \(rect) → \(w)x\(h)")
        }
    }

    @Test func sameSizeLanczosIsTheIdentity() {
        let src = Self.noise(width: 19, height: 13, seed: 3, opaque: true)
        let out = Resampler.resample(
            src, rect: SourceRect(x: 0, y: 0, width: 19, height: 13), width: 19, height: 13,
            kernel: .lanczos3, linearLight: false)
        #expect(out == src)
    }

    @Test(arguments: ResampleKernel.allCases)
    func weightsSumToOneForEveryOutputPixel(_ kernel: ResampleKernel) {
        for (inCount, outCount) in [(100, 7), (7, 100), (1000, 44), (3, 1), (1, 5)] {
            let w = ResampleWeights(
                kernel: kernel, inputCount: inCount, origin: 0, span: Double(inCount), outputCount: outCount)
            for i in 0..<outCount {
                let sum = (0..<w.counts[i]).reduce(Float(0)) { $0 + w.weights[i * w.stride + $1] }
                #expect(abs(sum - 1) < 1e-5)
                #expect(w.starts[i] >= 0 && w.starts[i] + w.counts[i] <= inCount)
            }
        }
    }

    @Test func aRedShapeOnTransparencyShowsNoDarkFringe() {
        // A 9×9 opaque red square in a transparent 30×30 field (transparent pixels are black
        // with alpha 0, the worst case for straight-alpha filtering).
        var src = PixelBuffer(width: 30, height: 30, fill: .transparent)
        for y in 10..<19 { for x in 10..<19 { src[x, y] = RGBA(255, 0, 0) } }
        for kernel in ResampleKernel.allCases {
            let out = Resampler.resample(
                src, rect: SourceRect(x: 0, y: 0, width: 30, height: 30), width: 10, height: 10,
                kernel: kernel, linearLight: false)
            var edgePixels = 0
            for y in 0..<10 {
                for x in 0..<10 where out[x, y].a > 0 {
                    let p = out[x, y]
                    #expect(p.r >= 254 && p.g <= 1 && p.b <= 1, "\(kernel) (\(x),\(y)) = \(p)")
                    if p.a < 255 { edgePixels += 1 }
                }
            }
            #expect(edgePixels > 0, "the square's edge should be partly transparent")
        }
    }

    @Test func resultsAreIdenticalWhateverTheThreadCount() {
        let src = Self.noise(width: 640, height: 427, seed: 11)
        let rect = SourceRect(x: 106.5, y: 0, width: 427, height: 427)
        for linear in [false, true] {
            let one = Resampler.resample(
                src, rect: rect, width: 88, height: 88, kernel: .lanczos3, linearLight: linear, threads: 1)
            let two = Resampler.resample(
                src, rect: rect, width: 88, height: 88, kernel: .lanczos3, linearLight: linear, threads: 2)
            let four = Resampler.resample(
                src, rect: rect, width: 88, height: 88, kernel: .lanczos3, linearLight: linear, threads: 4)
            #expect(one == two && two == four)
        }
    }

    @Test func boxPreShrinkStaysCloseToTheDirectFilter() {
        // A smooth gradient reduced 10×: the pre-shrunk result must track the exact filter.
        var src = PixelBuffer(width: 400, height: 300)
        for y in 0..<300 {
            for x in 0..<400 {
                src[x, y] = RGBA(UInt8(x * 255 / 399), UInt8(y * 255 / 299), UInt8((x + y) % 256 / 2 + 64))
            }
        }
        #expect(Resampler.boxFactor(step: 10, inputCount: 400) == 5)
        let rect = SourceRect(x: 0, y: 0, width: 400, height: 300)
        let fast = Resampler.resample(src, rect: rect, width: 40, height: 30, kernel: .lanczos3, linearLight: false)
        let slow = Self.reference(src, rect: rect, width: 40, height: 30, kernel: .lanczos3)
        #expect(Self.maxDifference(fast, slow) <= 3)
    }

    @Test func linearLightAveragesBlackAndWhiteToMidGreyInLight() {
        // Alternating black and white columns halved: gamma-space averaging gives 128,
        // linear-light averaging gives the sRGB encoding of 0.5, which is 188.
        var src = PixelBuffer(width: 8, height: 2)
        for y in 0..<2 { for x in 0..<8 { src[x, y] = x % 2 == 0 ? .black : .white } }
        let rect = SourceRect(x: 0, y: 0, width: 8, height: 2)
        let gamma = Resampler.resample(src, rect: rect, width: 4, height: 1, kernel: .box, linearLight: false)
        let linear = Resampler.resample(src, rect: rect, width: 4, height: 1, kernel: .box, linearLight: true)
        #expect(gamma[1, 0].r == 128)
        #expect(linear[1, 0].r == 188)
    }
}
