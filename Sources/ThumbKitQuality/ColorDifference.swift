// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// CIEDE2000 colour differences (ΔE₀₀) between sRGB images, as in CIE 142-2001 and the
/// implementation notes of Sharma, Wu & Dalal, "The CIEDE2000 color-difference formula:
/// implementation notes, supplementary test data, and mathematical observations", Color
/// Research & Application 30(1), 2005, pp. 21–30 (kL = kC = kH = 1).
///
/// Pixels are taken as 8-bit sRGB (IEC 61966-2-1), composited over opaque white like the other
/// metrics, decoded to linear light, turned into CIE XYZ with the sRGB matrix and into CIELAB
/// relative to the D65 white of sRGB itself. One white throughout, no chromatic adaptation: both
/// images are sRGB, so only the differences matter. A ΔE₀₀ near 1 is a just-noticeable
/// difference.
public enum ColorDifference {
    /// A CIELAB colour.
    public struct Lab: Sendable, Hashable {
        public var l: Double
        public var a: Double
        public var b: Double

        public init(_ l: Double, _ a: Double, _ b: Double) {
            self.l = l
            self.a = a
            self.b = b
        }
    }

    /// ΔE₀₀ for every pixel of `b` against `a`, in row order.
    ///
    /// - Throws: ``ComparisonError/sizeMismatch(first:second:)`` when the sizes differ.
    public static func ciede2000(_ a: PixelBuffer, _ b: PixelBuffer) throws -> [Double] {
        try ImageComparison.checkSameSize(a, b)
        let pa = a.flattened(onto: .white).pixels
        let pb = b.flattened(onto: .white).pixels
        var out = [Double](repeating: 0, count: a.pixelCount)
        for i in 0..<a.pixelCount {
            let j = i * 4
            out[i] = ciede2000(lab(pa[j], pa[j + 1], pa[j + 2]), lab(pb[j], pb[j + 1], pb[j + 2]))
        }
        return out
    }

    /// Mean, median, 95th percentile and extremes of ΔE₀₀ over the two images.
    public static func summary(_ a: PixelBuffer, _ b: PixelBuffer) throws -> Statistics.Summary {
        // Not empty: a PixelBuffer has at least one pixel.
        Statistics.Summary(try ciede2000(a, b))!
    }

    /// The CIELAB colour (D65 white) of an 8-bit sRGB triple.
    public static func lab(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Lab {
        let lr = linear[Int(r)]
        let lg = linear[Int(g)]
        let lb = linear[Int(b)]
        // sRGB primaries, D65 (IEC 61966-2-1), Y of white = 1.
        let x = 0.412_456_4 * lr + 0.357_576_1 * lg + 0.180_437_5 * lb
        let y = 0.212_672_9 * lr + 0.715_152_2 * lg + 0.072_175_0 * lb
        let z = 0.019_333_9 * lr + 0.119_192_0 * lg + 0.950_304_1 * lb
        let fx = f(x / white.x)
        let fy = f(y / white.y)
        let fz = f(z / white.z)
        return Lab(116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// ΔE₀₀ between two CIELAB colours (Sharma et al., equations 1–22).
    public static func ciede2000(_ c1: Lab, _ c2: Lab) -> Double {
        let radians = Double.pi / 180
        let cStar1 = (c1.a * c1.a + c1.b * c1.b).squareRoot()
        let cStar2 = (c2.a * c2.a + c2.b * c2.b).squareRoot()
        let cBar = (cStar1 + cStar2) / 2
        let cBar7 = pow(cBar, 7)
        let g = 0.5 * (1 - (cBar7 / (cBar7 + pow(25, 7))).squareRoot())
        let a1 = (1 + g) * c1.a
        let a2 = (1 + g) * c2.a
        let cp1 = (a1 * a1 + c1.b * c1.b).squareRoot()
        let cp2 = (a2 * a2 + c2.b * c2.b).squareRoot()
        let hp1 = hueDegrees(c1.b, a1)
        let hp2 = hueDegrees(c2.b, a2)

        let dL = c2.l - c1.l
        let dC = cp2 - cp1
        var dh = 0.0
        if cp1 * cp2 != 0 {
            dh = hp2 - hp1
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        }
        let dH = 2 * (cp1 * cp2).squareRoot() * sin(dh / 2 * radians)

        let lBar = (c1.l + c2.l) / 2
        let cpBar = (cp1 + cp2) / 2
        var hBar = hp1 + hp2
        if cp1 * cp2 != 0 {
            if abs(hp1 - hp2) <= 180 {
                hBar /= 2
            } else {
                hBar = hBar < 360 ? (hBar + 360) / 2 : (hBar - 360) / 2
            }
        }
        let t =
            1 - 0.17 * cos((hBar - 30) * radians) + 0.24 * cos(2 * hBar * radians)
            + 0.32 * cos((3 * hBar + 6) * radians) - 0.20 * cos((4 * hBar - 63) * radians)
        let dTheta = 30 * exp(-pow((hBar - 275) / 25, 2))
        let cpBar7 = pow(cpBar, 7)
        let rC = 2 * (cpBar7 / (cpBar7 + pow(25, 7))).squareRoot()
        let lBar50 = (lBar - 50) * (lBar - 50)
        let sL = 1 + 0.015 * lBar50 / (20 + lBar50).squareRoot()
        let sC = 1 + 0.045 * cpBar
        let sH = 1 + 0.015 * cpBar * t
        let rT = -sin(2 * dTheta * radians) * rC
        let termL = dL / sL
        let termC = dC / sC
        let termH = dH / sH
        return (termL * termL + termC * termC + termH * termH + rT * termC * termH).squareRoot()
    }

    /// The hue angle of (a, b) in degrees, 0..<360; 0 for a = b = 0.
    private static func hueDegrees(_ b: Double, _ a: Double) -> Double {
        if a == 0 && b == 0 { return 0 }
        let h = atan2(b, a) * 180 / Double.pi
        return h < 0 ? h + 360 : h
    }

    private static func f(_ t: Double) -> Double {
        let delta = 6.0 / 29
        return t > delta * delta * delta ? cbrt(t) : t / (3 * delta * delta) + 4.0 / 29
    }

    /// XYZ of the sRGB white (the matrix rows summed), so white maps to L* 100, a* = b* = 0.
    private static let white = (
        x: 0.412_456_4 + 0.357_576_1 + 0.180_437_5, y: 0.212_672_9 + 0.715_152_2 + 0.072_175_0,
        z: 0.019_333_9 + 0.119_192_0 + 0.950_304_1
    )

    /// 8-bit sRGB sample → linear light.
    private static let linear: [Double] = (0..<256).map { ColorTransfer.srgbToLinear(Double($0) / 255) }
}
