// SPDX-License-Identifier: Apache-2.0
import ThumbKit
extension ImageComparison {
    /// Side of the square SSIM window, as scikit-image's default `win_size`.
    public static let ssimWindow = 7

    /// Mean structural similarity (Wang et al. 2004) of `b` against `a`, averaged over R, G and B:
    /// 1 for identical images, lower the less alike they are (it can go below 0).
    ///
    /// Defined as scikit-image's `structural_similarity(a, b, channel_axis=2, data_range=255)`
    /// with its defaults: each 7×7 window that lies wholly inside the image (no padding) gets
    ///
    ///     SSIM = (2·μa·μb + C1)(2·σab + C2) / ((μa² + μb² + C1)(σa² + σb² + C2))
    ///
    /// with uniform means, *sample* (co)variances (divided by N − 1 = 48, not N = 49),
    /// C1 = (0.01·255)² and C2 = (0.03·255)²; a channel's score is the mean over its windows.
    /// Both images are composited over white first (see ``ImageComparison``).
    ///
    /// Window sums are exact integers (running sums in `Int`), so the result differs from
    /// scikit-image's floating-point filters by rounding only (well under 1e-9).
    ///
    /// - Throws: ``ComparisonError/sizeMismatch(first:second:)`` for different sizes, and
    ///   ``ComparisonError/tooSmallForSSIM(_:)`` when a side is shorter than 7 pixels.
    public static func ssim(_ a: PixelBuffer, _ b: PixelBuffer) throws -> Double {
        try checkSameSize(a, b)
        try checkLargeEnoughForSSIM(a)
        return ssim(CompositedPlanes(a), CompositedPlanes(b))
    }

    static func checkLargeEnoughForSSIM(_ image: PixelBuffer) throws {
        guard image.width >= ssimWindow, image.height >= ssimWindow else {
            throw ComparisonError.tooSmallForSSIM(.init(width: image.width, height: image.height))
        }
    }

    static func ssim(_ a: CompositedPlanes, _ b: CompositedPlanes) -> Double {
        var total = 0.0
        for channel in 0..<3 {
            total += a.plane(channel).withUnsafeBufferPointer { pa in
                b.plane(channel).withUnsafeBufferPointer { pb in
                    _meanSSIMUnsafe(pa, pb, width: a.width, height: a.height)
                }
            }
        }
        return total / 3
    }

    /// Mean SSIM of one 8-bit plane against another over every whole 7×7 window.
    ///
    /// Column sums over the current band of 7 rows are kept for x, y, x², y² and xy, and moved down
    /// one row at a time (add the new row, subtract the old one); each band is then swept left to
    /// right with a running sum over 7 columns. O(width·height) whatever the window size.
    static func _meanSSIMUnsafe(
        _ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>, width: Int, height: Int
    ) -> Double {
        let win = ssimWindow
        precondition(width >= win && height >= win, "SSIM needs a plane of at least 7x7.")
        precondition(x.count == width * height && y.count == width * height, "SSIM plane size mismatch.")

        // With A = Σx, B = Σy, Sxx = Σx², Syy = Σy², Sxy = Σxy over a window of N samples:
        //   (2μaμb + C1) / (μa² + μb² + C1) = (2AB + c1) / (A² + B² + c1),  c1 = C1·N²
        //   (2σab + C2) / (σa² + σb² + C2)   = (2(N·Sxy − AB) + c2)
        //                                      / (N·Sxx − A² + N·Syy − B² + c2),  c2 = C2·N(N − 1)
        // so every term but c1 and c2 is an exact integer.
        let n = win * win
        let c1 = (0.01 * 255) * (0.01 * 255) * Double(n * n)
        let c2 = (0.03 * 255) * (0.03 * 255) * Double(n * (n - 1))

        // Column sums of the band: sx, sy, sxx, syy, sxy, one block of `width` each.
        var columns = [Int](repeating: 0, count: 5 * width)
        return columns.withUnsafeMutableBufferPointer { colBuffer -> Double in
            let col = colBuffer.baseAddress!
            let sx = col, sy = col + width, sxx = col + 2 * width
            let syy = col + 3 * width, sxy = col + 4 * width
            let px = x.baseAddress!, py = y.baseAddress!

            // Adds row `add` to the column sums and, when `remove` >= 0, takes row `remove` out.
            func moveBand(add: Int, remove: Int) {
                let ax = px + add * width, ay = py + add * width
                if remove < 0 {
                    for i in 0..<width {
                        let vx = Int(ax[i]), vy = Int(ay[i])
                        sx[i] += vx; sy[i] += vy
                        sxx[i] += vx * vx; syy[i] += vy * vy; sxy[i] += vx * vy
                    }
                    return
                }
                let rx = px + remove * width, ry = py + remove * width
                for i in 0..<width {
                    let vx = Int(ax[i]), vy = Int(ay[i]), ox = Int(rx[i]), oy = Int(ry[i])
                    sx[i] += vx - ox; sy[i] += vy - oy
                    sxx[i] += vx * vx - ox * ox; syy[i] += vy * vy - oy * oy; sxy[i] += vx * vy - ox * oy
                }
            }

            for row in 0..<win { moveBand(add: row, remove: -1) }
            var total = 0.0
            for top in 0...(height - win) {
                if top > 0 { moveBand(add: top + win - 1, remove: top - 1) }
                var a = 0, b = 0, aa = 0, bb = 0, ab = 0
                for i in 0..<win {
                    a += sx[i]; b += sy[i]; aa += sxx[i]; bb += syy[i]; ab += sxy[i]
                }
                var rowTotal = 0.0
                var left = 0
                while true {
                    let prodAB = a * b
                    let numerator = (Double(2 * prodAB) + c1) * (Double(2 * (n * ab - prodAB)) + c2)
                    let denominator =
                        (Double(a * a + b * b) + c1) * (Double(n * aa - a * a + n * bb - b * b) + c2)
                    rowTotal += numerator / denominator
                    let right = left + win
                    if right == width { break }
                    a += sx[right] - sx[left]
                    b += sy[right] - sy[left]
                    aa += sxx[right] - sxx[left]
                    bb += syy[right] - syy[left]
                    ab += sxy[right] - sxy[left]
                    left += 1
                }
                total += rowTotal
            }
            let windows = (width - win + 1) * (height - win + 1)
            return total / Double(windows)
        }
    }
}
