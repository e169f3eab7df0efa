// SPDX-License-Identifier: Apache-2.0
import ThumbKit
/// Full-reference quality metrics: how close one image (a thumbnail, say) is to another of the
/// same size (a reference rendering of the same crop).
///
/// The metrics are defined as the common tools define them, so that figures compare across tools:
/// - ``ssim(_:_:)``: mean SSIM over R, G and B, as scikit-image's default `structural_similarity`
///   (7×7 uniform window, valid windows only, sample covariance, K1 = 0.01, K2 = 0.03, data
///   range 255), averaged over the three channels as `channel_axis=2` does.
/// - ``psnr(_:_:)``: PSNR over R, G and B together (one MSE over all three channels), as
///   scikit-image's `peak_signal_noise_ratio(data_range=255)`; `+infinity` for identical images.
/// - ``meanAbsoluteDifference(_:_:)`` and ``maximumAbsoluteDifference(_:_:)``: plain per-sample
///   differences, handy in tests.
///
/// Every metric first composites each image over opaque white, then ignores alpha: a pixel with
/// alpha `a` and colour `c` counts as `(c·a + 255·(255 − a) + 127) / 255` (integer division, so
/// the exact value rounded to the nearest 8-bit level). Opaque pixels are unchanged. Both images
/// must have the same size, or the metric throws ``ComparisonError/sizeMismatch(first:second:)``.
public enum ImageComparison {
    /// SSIM and PSNR of `b` against `a` in one call (the compositing is done once).
    ///
    /// - Throws: ``ComparisonError`` when the sizes differ or a side is shorter than 7 pixels.
    public static func compare(_ a: PixelBuffer, _ b: PixelBuffer) throws -> Result {
        try checkSameSize(a, b)
        try checkLargeEnoughForSSIM(a)
        let planesA = CompositedPlanes(a)
        let planesB = CompositedPlanes(b)
        return Result(
            ssim: ssim(planesA, planesB),
            psnr: psnr(meanSquaredError: meanSquaredError(planesA, planesB))
        )
    }

    static func checkSameSize(_ a: PixelBuffer, _ b: PixelBuffer) throws {
        guard a.width == b.width, a.height == b.height else {
            throw ComparisonError.sizeMismatch(
                first: ComparisonError.Size(width: a.width, height: a.height),
                second: ComparisonError.Size(width: b.width, height: b.height)
            )
        }
    }
}

/// Why two images could not be compared.
public enum ComparisonError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A width and height in pixels.
    public struct Size: Sendable, Hashable {
        public let width: Int
        public let height: Int

        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// The two images do not have the same width and height.
    case sizeMismatch(first: Size, second: Size)
    /// SSIM needs at least one whole 7×7 window: both sides must be 7 pixels or more.
    case tooSmallForSSIM(Size)

    /// One line, lower-case, without a final period.
    public var description: String {
        switch self {
        case .sizeMismatch(let a, let b):
            return "cannot compare images of different sizes: "
                + "\(a.width)x\(a.height) and \(b.width)x\(b.height)"
        case .tooSmallForSSIM(let s):
            return "ssim needs images of at least 7x7 pixels, got \(s.width)x\(s.height)"
        }
    }
}

/// An image composited over white, as three planes (R, G, B) of `width * height` bytes each.
struct CompositedPlanes {
    let width: Int
    let height: Int
    /// R plane, then G, then B; rows top-down.
    let samples: [UInt8]

    var pixelCount: Int { width * height }

    init(_ image: PixelBuffer) {
        width = image.width
        height = image.height
        let n = image.width * image.height
        samples = image.pixels.withUnsafeBufferPointer { src in
            precondition(src.count == 4 * n, "PixelBuffer needs width*height*4 bytes.")
            return [UInt8](unsafeUninitializedCapacity: 3 * n) { out, count in
                for i in 0..<n {
                    let a = Int(src[4 * i + 3])
                    for c in 0..<3 {
                        let v = Int(src[4 * i + c])
                        // Over white, rounded: (v·a + 255·(255 − a)) / 255, + 127 for round-to-nearest.
                        // For a = 255 this is v: opaque pixels are unchanged.
                        out[c * n + i] = UInt8(truncatingIfNeeded: (v * a + 255 * (255 - a) + 127) / 255)
                    }
                }
                count = 3 * n
            }
        }
    }

    /// One channel's plane (0 = R, 1 = G, 2 = B).
    func plane(_ channel: Int) -> ArraySlice<UInt8> {
        samples[(channel * pixelCount)..<((channel + 1) * pixelCount)]
    }
}
