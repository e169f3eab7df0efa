// SPDX-License-Identifier: Apache-2.0
import Foundation

extension ResampleKernel {
    /// Half-width of the kernel in source pixels at scale 1 (widened by the reduction factor).
    public var support: Double {
        switch self {
        case .box: return 0.5
        case .triangle: return 1
        case .catmullRom, .mitchell: return 2
        case .lanczos3: return 3
        }
    }

    /// The kernel's value at distance `x` (in filter units). Kernels are symmetric.
    public func weight(at x: Double) -> Double {
        let x = abs(x)
        switch self {
        case .box:
            // Half-open so that a pixel on the boundary belongs to exactly one output.
            return x < 0.5 ? 1 : 0
        case .triangle:
            return x < 1 ? 1 - x : 0
        case .catmullRom:
            return Self.cubic(x, b: 0, c: 0.5)
        case .mitchell:
            return Self.cubic(x, b: 1.0 / 3.0, c: 1.0 / 3.0)
        case .lanczos3:
            if x == 0 { return 1 }
            if x >= 3 { return 0 }
            let px = Double.pi * x
            return 3 * sin(px) * sin(px / 3) / (px * px)
        }
    }

    /// Mitchell–Netravali's two-parameter cubic family (B, C).
    private static func cubic(_ x: Double, b: Double, c: Double) -> Double {
        if x < 1 {
            return ((12 - 9 * b - 6 * c) * x * x * x + (-18 + 12 * b + 6 * c) * x * x + (6 - 2 * b)) / 6
        }
        if x < 2 {
            return ((-b - 6 * c) * x * x * x + (6 * b + 30 * c) * x * x + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6
        }
        return 0
    }
}

/// Precomputed filter taps for one axis: for each output pixel, the first source index it reads
/// and `taps` Float weights (zero-padded to a fixed stride) that sum to 1.
///
/// Source pixel `j` covers [j, j+1); output pixel `i` samples the source at
/// `origin + (i + 0.5) * step`, where `step` is source pixels per output pixel. When reducing,
/// the kernel is widened by `step` so every source pixel contributes (no aliasing). Taps that
/// fall outside the source are dropped and the rest renormalised.
struct ResampleWeights: Sendable {
    /// First source index read by each output pixel.
    let starts: [Int]
    /// Number of taps each output pixel uses (≤ `stride`).
    let counts: [Int]
    /// `outputCount * stride` weights.
    let weights: [Float]
    /// Weights per output pixel in `weights`.
    let stride: Int
    /// Lowest source index any output reads.
    let minSource: Int
    /// One past the highest source index any output reads.
    let maxSource: Int

    var outputCount: Int { starts.count }

    /// - Parameters:
    ///   - inputCount: source length in pixels.
    ///   - origin: source coordinate of the output's left/top edge (may be fractional or negative).
    ///   - span: source length the output covers.
    ///   - outputCount: output length in pixels.
    init(kernel: ResampleKernel, inputCount: Int, origin: Double, span: Double, outputCount: Int) {
        precondition(inputCount > 0 && outputCount > 0 && span > 0, "Resample axis sizes must be positive.")
        let step = span / Double(outputCount)
        let filterScale = max(1, step)
        let support = kernel.support * filterScale
        let stride = Int((support * 2).rounded(.up)) + 2
        var starts = [Int](repeating: 0, count: outputCount)
        var counts = [Int](repeating: 0, count: outputCount)
        var weights = [Float](repeating: 0, count: outputCount * stride)
        var scratch = [Double](repeating: 0, count: stride)
        var minSource = inputCount
        var maxSource = 0
        for i in 0..<outputCount {
            let centre = origin + (Double(i) + 0.5) * step
            var lo = Int((centre - support).rounded(.down))
            var hi = Int((centre + support).rounded(.up))
            lo = max(lo, 0)
            hi = min(hi, inputCount)
            if hi - lo > stride { hi = lo + stride }
            var total = 0.0
            var n = 0
            if lo < hi {
                for j in lo..<hi {
                    let w = kernel.weight(at: (Double(j) + 0.5 - centre) / filterScale)
                    scratch[j - lo] = w
                    total += w
                }
                n = hi - lo
            }
            if n == 0 || total == 0 {
                // Nothing in range (a sample beyond the edge, or a box kernel missing every
                // centre): use the nearest source pixel.
                lo = min(max(Int(centre.rounded(.down)), 0), inputCount - 1)
                scratch[0] = 1
                total = 1
                n = 1
            }
            // Trim zero-weight taps at both ends so loops do no useless work.
            var first = 0
            var last = n - 1
            while first < last && scratch[first] == 0 { first += 1 }
            while last > first && scratch[last] == 0 { last -= 1 }
            starts[i] = lo + first
            counts[i] = last - first + 1
            for t in first...last { weights[i * stride + t - first] = Float(scratch[t] / total) }
            minSource = min(minSource, lo + first)
            maxSource = max(maxSource, lo + last + 1)
        }
        self.starts = starts
        self.counts = counts
        self.weights = weights
        self.stride = stride
        self.minSource = minSource
        self.maxSource = maxSource
    }
}
