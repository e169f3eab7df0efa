// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

extension ImageComparison {
    /// Peak signal-to-noise ratio of `b` against `a`, in decibels, over R, G and B:
    /// `10·log10(255² / MSE)`, where MSE is the mean squared difference over every R, G and B
    /// sample (one MSE for the three channels, not a mean of three PSNRs), after compositing both
    /// images over white. Identical images give `+infinity` (see ``ImageComparison/Result`` for JSON).
    ///
    /// Defined as scikit-image's `peak_signal_noise_ratio(a_rgb, b_rgb, data_range=255)`.
    ///
    /// - Throws: ``ComparisonError/sizeMismatch(first:second:)`` for different sizes.
    public static func psnr(_ a: PixelBuffer, _ b: PixelBuffer) throws -> Double {
        psnr(meanSquaredError: try meanSquaredError(a, b))
    }

    /// Mean squared difference over every R, G and B sample after compositing over white
    /// (0 for identical images, at most 255²).
    ///
    /// - Throws: ``ComparisonError/sizeMismatch(first:second:)`` for different sizes.
    public static func meanSquaredError(_ a: PixelBuffer, _ b: PixelBuffer) throws -> Double {
        try checkSameSize(a, b)
        return meanSquaredError(CompositedPlanes(a), CompositedPlanes(b))
    }

    /// Mean absolute difference over every R, G and B sample after compositing over white,
    /// in 8-bit levels (0...255).
    ///
    /// - Throws: ``ComparisonError/sizeMismatch(first:second:)`` for different sizes.
    public static func meanAbsoluteDifference(_ a: PixelBuffer, _ b: PixelBuffer) throws -> Double {
        try checkSameSize(a, b)
        let (sum, _) = absoluteDifferences(CompositedPlanes(a), CompositedPlanes(b))
        return Double(sum) / Double(3 * a.pixelCount)
    }

    /// The largest absolute difference of any R, G or B sample after compositing over white,
    /// in 8-bit levels (0...255).
    ///
    /// - Throws: ``ComparisonError/sizeMismatch(first:second:)`` for different sizes.
    public static func maximumAbsoluteDifference(_ a: PixelBuffer, _ b: PixelBuffer) throws -> Int {
        try checkSameSize(a, b)
        return absoluteDifferences(CompositedPlanes(a), CompositedPlanes(b)).max
    }

    /// `10·log10(255² / mse)`; `+infinity` when `mse` is 0.
    static func psnr(meanSquaredError mse: Double) -> Double {
        mse == 0 ? .infinity : 10 * log10(255.0 * 255.0 / mse)
    }

    static func meanSquaredError(_ a: CompositedPlanes, _ b: CompositedPlanes) -> Double {
        var sum = 0  // exact: at most 3·w·h·255², far below Int.max for any real image
        a.samples.withUnsafeBufferPointer { pa in
            b.samples.withUnsafeBufferPointer { pb in
                for i in 0..<pa.count {
                    let d = Int(pa[i]) - Int(pb[i])
                    sum += d * d
                }
            }
        }
        return Double(sum) / Double(a.samples.count)
    }

    static func absoluteDifferences(_ a: CompositedPlanes, _ b: CompositedPlanes) -> (sum: Int, max: Int) {
        var sum = 0
        var largest = 0
        for (va, vb) in zip(a.samples, b.samples) {
            let d = abs(Int(va) - Int(vb))
            sum += d
            largest = Swift.max(largest, d)
        }
        return (sum, largest)
    }
}
