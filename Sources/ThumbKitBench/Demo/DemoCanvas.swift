// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// A colour for the demo drawings, components 0…1, straight alpha.
struct Paint: Sendable, Hashable {
    var r: Float
    var g: Float
    var b: Float
    var a: Float = 1

    /// `0xRRGGBB`.
    init(_ hex: UInt32, alpha: Float = 1) {
        r = Float((hex >> 16) & 0xFF) / 255
        g = Float((hex >> 8) & 0xFF) / 255
        b = Float(hex & 0xFF) / 255
        a = alpha
    }

    init(r: Float, g: Float, b: Float, a: Float = 1) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// The colour `t` of the way to `other`.
    func mixed(with other: Paint, _ t: Double) -> Paint {
        let t = Float(max(0, min(1, t)))
        return Paint(
            r: r + (other.r - r) * t, g: g + (other.g - g) * t, b: b + (other.b - b) * t, a: a + (other.a - a) * t)
    }

    /// Lighter (`amount` > 0) or darker (< 0).
    func shaded(_ amount: Double) -> Paint {
        amount >= 0 ? mixed(with: Paint(0xFFFFFF, alpha: a), amount) : mixed(with: Paint(0x000000, alpha: a), -amount)
    }

    func withAlpha(_ alpha: Float) -> Paint { Paint(r: r, g: g, b: b, a: alpha) }
}

/// A tiny anti-aliased rasteriser for the demo pictures: shapes are coverage functions
/// (signed distances, or 4×4 supersampling for polygons) composited "over" a premultiplied
/// float canvas. Slow by design goals (clarity), fast enough for a few dozen small pictures.
struct DemoCanvas {
    let width: Int
    let height: Int
    /// Premultiplied RGBA, rows top-down.
    private var data: [Float]

    /// A transparent canvas.
    init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "A canvas needs a positive size.")
        self.width = width
        self.height = height
        data = [Float](repeating: 0, count: width * height * 4)
    }

    /// Paints every pixel with `shader(x, y)` over what is there (pixel centres).
    mutating func fill(_ shader: (Double, Double) -> Paint) {
        for y in 0..<height {
            for x in 0..<width { blend(x, y, shader(Double(x) + 0.5, Double(y) + 0.5), coverage: 1) }
        }
    }

    /// Paints `paint` where `coverage(x, y)` (0…1) says, inside the box (clipped).
    mutating func shape(
        _ paint: Paint, box: (x0: Double, y0: Double, x1: Double, y1: Double), coverage: (Double, Double) -> Double
    ) {
        let xs = max(0, Int(box.x0.rounded(.down)))..<min(width, Int(box.x1.rounded(.up)) + 1)
        let ys = max(0, Int(box.y0.rounded(.down)))..<min(height, Int(box.y1.rounded(.up)) + 1)
        guard !xs.isEmpty, !ys.isEmpty else { return }
        for y in ys {
            for x in xs {
                let c = coverage(Double(x) + 0.5, Double(y) + 0.5)
                if c > 0 { blend(x, y, paint, coverage: Float(min(1, c))) }
            }
        }
    }

    /// An ellipse centred at (`cx`, `cy`) with radii `rx`, `ry`, turned by `angle` radians;
    /// `soft` widens the edge (pixels) for glows and shadows.
    mutating func ellipse(
        _ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double, angle: Double = 0, soft: Double = 1, _ paint: Paint
    ) {
        let reach = max(rx, ry) + soft
        let (s, c) = (sin(angle), cos(angle))
        shape(paint, box: (cx - reach, cy - reach, cx + reach, cy + reach)) { x, y in
            let u = (x - cx) * c + (y - cy) * s
            let v = -(x - cx) * s + (y - cy) * c
            let k = ((u / rx) * (u / rx) + (v / ry) * (v / ry)).squareRoot()
            let distance = (k - 1) * min(rx, ry)
            return max(0, min(1, 0.5 - distance / soft))
        }
    }

    /// A stroke from `a` to `b`, `thickness` wide, with round ends.
    mutating func line(_ a: (Double, Double), _ b: (Double, Double), thickness: Double, _ paint: Paint) {
        let r = thickness / 2
        let box = (min(a.0, b.0) - r - 1, min(a.1, b.1) - r - 1, max(a.0, b.0) + r + 1, max(a.1, b.1) + r + 1)
        let (dx, dy) = (b.0 - a.0, b.1 - a.1)
        let length2 = max(1e-9, dx * dx + dy * dy)
        shape(paint, box: box) { x, y in
            let t = max(0, min(1, ((x - a.0) * dx + (y - a.1) * dy) / length2))
            let (px, py) = (a.0 + t * dx - x, a.1 + t * dy - y)
            return max(0, min(1, 0.5 - ((px * px + py * py).squareRoot() - r)))
        }
    }

    /// A filled polygon (even-odd), anti-aliased by 4×4 supersampling.
    mutating func polygon(_ points: [(Double, Double)], _ paint: Paint) {
        guard points.count >= 3 else { return }
        let box = (
            points.map(\.0).min()! - 1, points.map(\.1).min()! - 1, points.map(\.0).max()! + 1,
            points.map(\.1).max()! + 1
        )
        shape(paint, box: box) { x, y in
            var inside = 0
            for sy in 0..<4 {
                for sx in 0..<4
                where Self.contains(points, x - 0.5 + (Double(sx) + 0.5) / 4, y - 0.5 + (Double(sy) + 0.5) / 4) {
                    inside += 1
                }
            }
            return Double(inside) / 16
        }
    }

    /// Even-odd point-in-polygon.
    private static func contains(_ points: [(Double, Double)], _ x: Double, _ y: Double) -> Bool {
        var inside = false
        var j = points.count - 1
        for i in points.indices {
            let (xi, yi) = points[i]
            let (xj, yj) = points[j]
            if (yi > y) != (yj > y), x < (xj - xi) * (y - yi) / (yj - yi) + xi { inside.toggle() }
            j = i
        }
        return inside
    }

    /// Adds film-like grain: each pixel's colour moves by up to ±`amount`, the same for a seed.
    mutating func grain(_ amount: Float, seed: UInt64) {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        for i in stride(from: 0, to: data.count, by: 4) where data[i + 3] > 0 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let n = (Float(state & 0xFFFF) / 65535 - 0.5) * 2 * amount * data[i + 3]
            for c in 0..<3 { data[i + c] = max(0, min(data[i + 3], data[i + c] + n)) }
        }
    }

    /// Straight-alpha "over" of `paint` at `coverage`, on premultiplied storage.
    private mutating func blend(_ x: Int, _ y: Int, _ paint: Paint, coverage: Float) {
        let alpha = paint.a * coverage
        guard alpha > 0 else { return }
        let i = (y * width + x) * 4
        let keep = 1 - alpha
        data[i] = paint.r * alpha + data[i] * keep
        data[i + 1] = paint.g * alpha + data[i + 1] * keep
        data[i + 2] = paint.b * alpha + data[i + 2] * keep
        data[i + 3] = alpha + data[i + 3] * keep
    }

    /// The picture as 8-bit straight RGBA.
    func image() -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: data.count)
        for i in stride(from: 0, to: data.count, by: 4) {
            let a = data[i + 3]
            guard a > 0 else { continue }
            for c in 0..<3 { bytes[i + c] = UInt8(max(0, min(255, (data[i + c] / a * 255).rounded()))) }
            bytes[i + 3] = UInt8(max(0, min(255, (a * 255).rounded())))
        }
        return PixelBuffer(width: width, height: height, pixels: bytes)
    }
}
