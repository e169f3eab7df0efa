// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// The quality reference: the exact crop of the full-resolution picture, resampled with a
/// Lanczos3 filter in Double precision, without any shrink-on-load or box pre-shrink, as
/// Pillow's `resize(size, LANCZOS, box=crop)` computes it, only in floating point throughout.
///
/// - The crop is the one ThumbKit plans (``CropGeometry/plan(sourceWidth:sourceHeight:options:)``),
///   with fractional edges: output pixel *i* samples the source at `x + (i + 0.5) · step`.
/// - The kernel is widened by the reduction (`support = 3 · max(1, step)`); taps run from
///   `⌊centre − support + ½⌋` to `⌊centre + support + ½⌋` (Pillow's bounds), clamped to the
///   image, and their weights are renormalised to sum to 1.
/// - Alpha is premultiplied before filtering and divided out after, as Pillow does for RGBA.
/// - By default the filter runs on the sRGB-encoded values (`v / 255`), as Pillow and most
///   tools do; with `linearLight` it runs on linear light (the sRGB transfer function undone
///   first and redone after).
///
/// Slow on purpose (no SIMD, no shortcuts); a 24 MP picture takes about a second.
public enum ReferenceResampler {
    /// Renders `image` (already upright, full resolution) into `options`' box.
    ///
    /// - Precondition: `options.mode` is `fill`, `fit` or `stretch` (a pad canvas is not a
    ///   resampling question).
    public static func render(_ image: PixelBuffer, options: ResizeOptions, linearLight: Bool = false) -> PixelBuffer {
        precondition(options.mode != .pad, "The reference renders fill, fit and stretch boxes.")
        let geometry = CropGeometry.plan(sourceWidth: image.width, sourceHeight: image.height, options: options)
        return render(image, geometry: geometry, linearLight: linearLight)
    }

    /// Renders `geometry`'s source rectangle of `image` (already upright, full resolution) at
    /// its output size: the same filter for a crop planned another way (a tool that crops at
    /// whole output pixels, for example).
    public static func render(_ image: PixelBuffer, geometry: CropGeometry, linearLight: Bool = false) -> PixelBuffer {
        let rect = geometry.sourceRect
        let columns = Taps(inputCount: image.width, origin: rect.x, span: rect.width, outputCount: geometry.outputWidth)
        let rows = Taps(inputCount: image.height, origin: rect.y, span: rect.height, outputCount: geometry.outputHeight)
        return resample(image, columns: columns, rows: rows, linearLight: linearLight)
    }

    /// The filter taps of one axis: for output pixel *i*, source pixels `starts[i]...` with
    /// `weights[i]` (summing to 1).
    struct Taps {
        let starts: [Int]
        let weights: [[Double]]

        var outputCount: Int { starts.count }
        /// Lowest source index read.
        var first: Int { starts.min() ?? 0 }
        /// One past the highest source index read.
        var end: Int { zip(starts, weights).map { $0 + $1.count }.max() ?? 0 }

        init(inputCount: Int, origin: Double, span: Double, outputCount: Int) {
            precondition(inputCount > 0 && outputCount > 0 && span > 0, "Axis sizes must be positive.")
            let step = span / Double(outputCount)
            let filterScale = max(1, step)
            let support = ResampleKernel.lanczos3.support * filterScale
            var starts: [Int] = []
            var weights: [[Double]] = []
            for i in 0..<outputCount {
                let centre = origin + (Double(i) + 0.5) * step
                let lo = max(0, Int((centre - support + 0.5).rounded(.down)))
                let hi = min(inputCount, Int((centre + support + 0.5).rounded(.down)))
                var taps: [Double] = []
                if lo < hi {
                    taps = (lo..<hi).map {
                        ResampleKernel.lanczos3.weight(at: (Double($0) - centre + 0.5) / filterScale)
                    }
                }
                let total = taps.reduce(0, +)
                if taps.isEmpty || total == 0 {
                    // A sample beyond the picture: the nearest edge pixel.
                    starts.append(min(max(Int(centre.rounded(.down)), 0), inputCount - 1))
                    weights.append([1])
                } else {
                    starts.append(lo)
                    weights.append(taps.map { $0 / total })
                }
            }
            self.starts = starts
            self.weights = weights
        }
    }

    /// The separable filter: horizontal pass over the rows the vertical pass reads, then the
    /// vertical pass, on premultiplied Double RGBA.
    static func resample(_ image: PixelBuffer, columns: Taps, rows: Taps, linearLight: Bool) -> PixelBuffer {
        let outW = columns.outputCount
        let outH = rows.outputCount
        let toWorking: [Double] = (0..<256).map { linearLight ? srgbToLinear(Double($0) / 255) : Double($0) / 255 }
        let firstRow = rows.first
        let rowCount = rows.end - firstRow
        let firstColumn = columns.first
        let columnCount = columns.end - firstColumn
        // Horizontal pass: `rowCount` rows of `outW` premultiplied RGBA values.
        var band = [Double](repeating: 0, count: rowCount * outW * 4)
        var source = [Double](repeating: 0, count: columnCount * 4)
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<rowCount {
                let rowStart = ((firstRow + y) * image.width + firstColumn) * 4
                for x in 0..<columnCount {
                    let p = rowStart + 4 * x
                    let alpha = Double(pixels[p + 3]) / 255
                    source[4 * x] = toWorking[Int(pixels[p])] * alpha
                    source[4 * x + 1] = toWorking[Int(pixels[p + 1])] * alpha
                    source[4 * x + 2] = toWorking[Int(pixels[p + 2])] * alpha
                    source[4 * x + 3] = alpha
                }
                for o in 0..<outW {
                    var r = 0.0
                    var g = 0.0
                    var b = 0.0
                    var a = 0.0
                    let start = columns.starts[o] - firstColumn
                    for (t, w) in columns.weights[o].enumerated() {
                        let s = 4 * (start + t)
                        r += w * source[s]
                        g += w * source[s + 1]
                        b += w * source[s + 2]
                        a += w * source[s + 3]
                    }
                    let d = (y * outW + o) * 4
                    band[d] = r
                    band[d + 1] = g
                    band[d + 2] = b
                    band[d + 3] = a
                }
            }
        }
        // Vertical pass, then un-premultiply and round to 8 bits.
        var out = [UInt8](repeating: 0, count: outW * outH * 4)
        for oy in 0..<outH {
            let start = rows.starts[oy] - firstRow
            let weights = rows.weights[oy]
            for ox in 0..<outW {
                var r = 0.0
                var g = 0.0
                var b = 0.0
                var a = 0.0
                for (t, w) in weights.enumerated() {
                    let s = ((start + t) * outW + ox) * 4
                    r += w * band[s]
                    g += w * band[s + 1]
                    b += w * band[s + 2]
                    a += w * band[s + 3]
                }
                let d = (oy * outW + ox) * 4
                let alpha = min(max(a, 0), 1)
                if alpha > 0 {
                    out[d] = encode(r / a, linearLight: linearLight)
                    out[d + 1] = encode(g / a, linearLight: linearLight)
                    out[d + 2] = encode(b / a, linearLight: linearLight)
                }
                out[d + 3] = UInt8((alpha * 255).rounded())
            }
        }
        return PixelBuffer(width: outW, height: outH, pixels: out)
    }

    /// A working value back to an 8-bit sample, clamped and rounded to nearest.
    static func encode(_ value: Double, linearLight: Bool) -> UInt8 {
        let clamped = min(max(value, 0), 1)
        let encoded = linearLight ? linearToSRGB(clamped) : clamped
        return UInt8((encoded * 255).rounded())
    }

    /// The sRGB transfer function undone (IEC 61966-2-1).
    static func srgbToLinear(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// The sRGB transfer function.
    static func linearToSRGB(_ v: Double) -> Double {
        v <= 0.003_130_8 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
    }
}
