// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// A small deterministic random generator (SplitMix64), so the demo pictures are the same on
/// every run.
struct DemoRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`.
    mutating func callAsFunction(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
}

/// The demo's pictures, drawn from shapes and gradients (no text): bugs on leaves, dishes on
/// plates, star icons and a logo.
enum DemoPictures {
    /// How one bug looks.
    struct BugLook: Sendable {
        var body: UInt32
        var spots: UInt32?
        var legs = 6
        /// Body length ÷ width.
        var elongation = 1.35
        var glow = false
        var stripes = false
    }

    /// A bug on a leaf, `width`×`height`, photo-like (soft background, shadow, grain).
    static func bug(_ look: BugLook, width: Int = 640, height: Int = 480, seed: UInt64) -> PixelBuffer {
        var random = DemoRandom(seed: seed)
        var canvas = DemoCanvas(width: width, height: height)
        let w = Double(width)
        let h = Double(height)
        let top = Paint(0x9BC46A).shaded(random(-0.1...0.1))
        let bottom = Paint(0x2F5A2A).shaded(random(-0.1...0.05))
        canvas.fill { _, y in top.mixed(with: bottom, y / h) }
        for _ in 0..<9 {  // Out-of-focus foliage.
            let r = random(40...120)
            canvas.ellipse(
                random(0...w), random(0...h), r, r * random(0.7...1.2), soft: r * 0.8,
                Paint(0xD8F0A0, alpha: Float(random(0.08...0.25))))
        }
        let angle = random(-0.5...0.5)
        let (cx, cy) = (w * random(0.45...0.55), h * random(0.48...0.56))
        canvas.ellipse(cx, cy, w * 0.42, h * 0.3, angle: angle, Paint(0x4E8F36))  // Leaf.
        canvas.line(
            (cx - cos(angle) * w * 0.42, cy - sin(angle) * w * 0.42),
            (cx + cos(angle) * w * 0.42, cy + sin(angle) * w * 0.42),
            thickness: 3, Paint(0x8CC46B, alpha: 0.8))
        for k in stride(from: -0.3, through: 0.3, by: 0.15) {  // Leaf veins.
            let (sx, sy) = (cx + cos(angle) * w * k, cy + sin(angle) * w * k)
            canvas.line(
                (sx, sy), (sx + cos(angle - 0.9) * h * 0.2, sy + sin(angle - 0.9) * h * 0.2), thickness: 1.5,
                Paint(0x7DB85C, alpha: 0.6))
            canvas.line(
                (sx, sy), (sx + cos(angle + 0.9) * h * 0.2, sy + sin(angle + 0.9) * h * 0.2), thickness: 1.5,
                Paint(0x7DB85C, alpha: 0.6))
        }

        // Bigger bugs for short bodies, so each fills the frame about as much.
        let size = min(w, h) * random(0.21...0.24) * (1.35 / look.elongation).squareRoot()
        let heading = random(-0.6...0.6) - .pi / 2
        let (bx, by) = (cx + random(-20...20), cy + random(-10...10))
        let along = (cos(heading), sin(heading))
        let across = (-along.1, along.0)
        func at(_ a: Double, _ b: Double) -> (Double, Double) {
            (bx + along.0 * a + across.0 * b, by + along.1 * a + across.1 * b)
        }
        let length = size * look.elongation
        if look.glow {
            canvas.ellipse(
                at(-length * 0.6, 0).0, at(-length * 0.6, 0).1, size * 1.2, size * 1.2, soft: size,
                Paint(0xFFF59A, alpha: 0.7))
        }
        canvas.ellipse(
            bx + 10, by + 14, length * 1.05, size * 1.0, angle: heading, soft: size * 0.5, Paint(0x000000, alpha: 0.35))
        let legColor = Paint(look.body).shaded(-0.65)
        for i in 0..<look.legs {  // Legs: pairs spread along the body, bent at the knee.
            let pair = Double(i / 2)
            let side: Double = i % 2 == 0 ? 1 : -1
            let base = at(length * (0.35 - 0.7 * pair / Double(max(1, look.legs / 2 - 1))), side * size * 0.6)
            let knee = at(length * (0.5 - 0.75 * pair / Double(max(1, look.legs / 2 - 1))), side * size * 1.35)
            let foot = at(length * (0.2 - 1.0 * pair / Double(max(1, look.legs / 2 - 1))), side * size * 1.8)
            canvas.line(base, knee, thickness: size * 0.12, legColor)
            canvas.line(knee, foot, thickness: size * 0.09, legColor)
        }
        let head = at(length * 0.95, 0)
        for side in [-1.0, 1.0] {  // Antennae.
            canvas.line(head, at(length * 1.7, side * size * 0.7), thickness: size * 0.06, legColor)
        }
        let body = Paint(look.body)
        canvas.ellipse(bx, by, length, size, angle: heading, body)
        if look.stripes {
            for k in stride(from: -0.6, through: 0.6, by: 0.3) {
                canvas.line(
                    at(length * k, -size * 0.95), at(length * k, size * 0.95), thickness: size * 0.12,
                    body.shaded(-0.35))
            }
        }
        // The split between the wing cases.
        canvas.line(at(length * 0.7, 0), at(-length * 0.95, 0), thickness: size * 0.05, body.shaded(-0.5))
        if let spots = look.spots {
            for (a, b) in [(0.35, 0.45), (0.35, -0.45), (-0.15, 0.55), (-0.15, -0.55), (-0.55, 0.3), (-0.55, -0.3)] {
                let p = at(length * a, size * b)
                canvas.ellipse(p.0, p.1, size * 0.16, size * 0.16, Paint(spots))
            }
        }
        canvas.ellipse(head.0, head.1, size * 0.42, size * 0.38, angle: heading, body.shaded(-0.55))
        let shine = at(length * 0.25, -size * 0.35)
        canvas.ellipse(
            shine.0, shine.1, length * 0.35, size * 0.18, angle: heading, soft: 6, Paint(0xFFFFFF, alpha: 0.35))
        canvas.grain(0.035, seed: seed)
        return canvas.image()
    }

    /// What a dish looks like: the pieces on the plate.
    enum DishStyle: Sendable {
        case chicken, beef, pork, seafood, pasta, salad
    }

    /// A dish on a plate on a wooden table, `width`×`height`.
    static func dish(_ style: DishStyle, width: Int = 800, height: Int = 600, seed: UInt64) -> PixelBuffer {
        var random = DemoRandom(seed: seed)
        var canvas = DemoCanvas(width: width, height: height)
        let w = Double(width)
        let h = Double(height)
        let wood = Paint(0xA0683A).shaded(random(-0.15...0.1))
        canvas.fill { x, y in
            let grain = sin(y / h * 40 + sin(x / w * 6) * 2) * 0.5 + 0.5
            return wood.shaded(-0.18 * grain + 0.1 * (1 - y / h))
        }
        let (cx, cy) = (w * 0.5, h * 0.52)
        let r = min(w, h) * 0.42
        canvas.ellipse(cx + 14, cy + 20, r * 1.02, r * 0.98, soft: 30, Paint(0x000000, alpha: 0.4))  // Shadow.
        canvas.ellipse(cx, cy, r, r, Paint(0xF4F2EC))
        canvas.ellipse(cx, cy, r * 0.78, r * 0.78, soft: 6, Paint(0xE4E0D6))
        canvas.ellipse(cx, cy, r * 0.74, r * 0.74, Paint(0xFBFAF6))
        let inner = r * 0.62
        func spot() -> (Double, Double) {
            let a = random(0...(2 * .pi))
            let d = inner * random(0...1).squareRoot()
            return (cx + cos(a) * d, cy + sin(a) * d)
        }
        // Small dots at random spots (herbs, crumbs). A nested function, so that `spot` and the
        // sizes draw from `random` one after the other: passing `&random` to a function that
        // also calls `spot` overlapped two accesses to it (a runtime exclusivity violation).
        func sprinkle(_ paint: Paint, count: Int) {
            for _ in 0..<count {
                let p = spot()
                canvas.ellipse(p.0, p.1, random(2...4), random(2...4), paint)
            }
        }
        switch style {
        case .chicken:
            for _ in 0..<5 {
                let p = spot()
                let size = random(40...70)
                let turn = random(0...3)
                canvas.ellipse(p.0, p.1, size, size * 0.7, angle: turn, Paint(0x8A4E1C))
                canvas.ellipse(p.0 - 4, p.1 - 4, size * 0.9, size * 0.6, angle: turn, Paint(0xD08A3A))
            }
            sprinkle(Paint(0x3D7A2A), count: 60)
        case .beef:
            let start = random(0...(2 * .pi))  // each dish's slices turned its own way
            for i in 0..<6 {
                let a = start + Double(i) / 6 * 2 * .pi + random(-0.2...0.2)
                let p = (cx + cos(a) * inner * 0.5, cy + sin(a) * inner * 0.5)
                canvas.ellipse(p.0, p.1, 62, 30, angle: a + .pi / 2, Paint(0x4A2414))
                canvas.ellipse(p.0, p.1, 50, 20, angle: a + .pi / 2, Paint(0xB4524A))
            }
            canvas.ellipse(cx, cy, 45, 45, Paint(0x6B8E23))
        case .pork:
            for _ in 0..<3 {
                let p = spot()
                let turn = random(0...3)
                canvas.ellipse(p.0, p.1, 85, 55, angle: turn, Paint(0xC98E74))
                canvas.ellipse(p.0, p.1, 70, 42, angle: turn, Paint(0xE8B9A0))
                canvas.line((p.0 - 50, p.1), (p.0 - 100, p.1 - 10), thickness: 16, Paint(0xF3EBDD))
            }
            sprinkle(Paint(0xE0A030), count: 40)
        case .seafood:
            canvas.ellipse(cx - inner * 0.4, cy - inner * 0.3, 50, 28, angle: 0.4, Paint(0xF2D94E))  // Lemon.
            for _ in 0..<7 {
                let p = spot()
                let a = random(0...(2 * .pi))
                for k in 0..<8 {  // Curled shrimp: a bending chain of segments.
                    let t = Double(k) / 7
                    let angle = a + t * 2.6
                    let q = (p.0 + cos(angle) * 30, p.1 + sin(angle) * 30)
                    canvas.ellipse(q.0, q.1, 14 - t * 6, 12 - t * 5, angle: angle, Paint(0xF07F4F).shaded(-t * 0.2))
                }
            }
        case .pasta:
            for i in 0..<45 {
                let a0 = random(0...(2 * .pi))
                var p = spot()
                for k in 0..<12 {
                    let a = a0 + sin(Double(k) * 0.8 + Double(i)) * 1.2
                    let q = (p.0 + cos(a) * 14, p.1 + sin(a) * 14)
                    if hypot(q.0 - cx, q.1 - cy) < inner {
                        canvas.line(p, q, thickness: 6, Paint(0xF1D27A).shaded(random(-0.1...0.05)))
                    }
                    p = q
                }
            }
            canvas.ellipse(cx, cy, 70, 60, soft: 8, Paint(0xB3261E, alpha: 0.9))
            sprinkle(Paint(0xF8F4E0), count: 50)
        case .salad:
            for _ in 0..<18 {
                let p = spot()
                canvas.ellipse(
                    p.0, p.1, random(30...50), random(15...25), angle: random(0...3),
                    Paint(0x5DA63A).shaded(random(-0.3...0.2)))
            }
            for _ in 0..<6 {
                let p = spot()
                canvas.ellipse(p.0, p.1, 22, 22, Paint(0xD8332A))
                canvas.ellipse(p.0 - 6, p.1 - 6, 6, 6, soft: 3, Paint(0xFFFFFF, alpha: 0.5))
            }
            for _ in 0..<5 {
                let p = spot()
                canvas.ellipse(p.0, p.1, 18, 18, Paint(0xF2F2F2))
                canvas.ellipse(p.0, p.1, 12, 12, Paint(0x5DA63A))
            }
        }
        canvas.grain(0.03, seed: seed)
        return canvas.image()
    }

    /// A five-pointed star icon on transparency: `fill` inside an `outline` border.
    static func star(side: Int = 64, fill: Paint, outline: Paint) -> PixelBuffer {
        var canvas = DemoCanvas(width: side, height: side)
        let s = Double(side)
        func points(_ outer: Double) -> [(Double, Double)] {
            (0..<10).map { i in
                let r = i % 2 == 0 ? outer : outer * 0.45
                let a = -Double.pi / 2 + Double(i) * .pi / 5
                return (s / 2 + cos(a) * r, s * 0.53 + sin(a) * r)
            }
        }
        canvas.polygon(points(s * 0.48), outline)
        canvas.polygon(points(s * 0.38), fill)
        return canvas.image()
    }

    /// The app's logo: a ladybird on a plate on a green square, `side` pixels, opaque.
    static func logo(side: Int = 1024) -> PixelBuffer {
        var canvas = DemoCanvas(width: side, height: side)
        let s = Double(side)
        canvas.fill { x, y in
            Paint(0x3FA34D).mixed(with: Paint(0x1F6E5A), (x + y) / (2 * s))
        }
        canvas.ellipse(s * 0.52, s * 0.55, s * 0.36, s * 0.36, soft: s * 0.04, Paint(0x000000, alpha: 0.3))
        canvas.ellipse(s * 0.5, s * 0.5, s * 0.34, s * 0.34, Paint(0xF7F5EF))
        canvas.ellipse(s * 0.5, s * 0.5, s * 0.25, s * 0.25, soft: s * 0.01, Paint(0xE6E2D8))
        let look = BugLook(body: 0xD7261E, spots: 0x1A1A1A)
        let bug = DemoPictures.bugGlyph(look)
        for (part, paint) in bug { canvas.ellipse(part.0 * s, part.1 * s, part.2 * s, part.3 * s, paint) }
        return canvas.image()
    }

    /// A simple top-down ladybird made of ellipses (centre x, y, radii, all fractions of the
    /// canvas) for the logo.
    private static func bugGlyph(_ look: BugLook) -> [((Double, Double, Double, Double), Paint)] {
        var parts: [((Double, Double, Double, Double), Paint)] = [
            ((0.5, 0.33, 0.07, 0.06), Paint(0x1A1A1A)),
            ((0.5, 0.52, 0.15, 0.17), Paint(look.body)),
        ]
        for (dx, dy) in [(-0.07, -0.06), (0.07, -0.06), (-0.09, 0.04), (0.09, 0.04), (-0.05, 0.12), (0.05, 0.12)] {
            parts.append(((0.5 + dx, 0.52 + dy, 0.025, 0.025), Paint(look.spots ?? 0x1A1A1A)))
        }
        parts.append(((0.5, 0.52, 0.004, 0.17), Paint(0x1A1A1A)))
        parts.append(((0.45, 0.43, 0.04, 0.02), Paint(0xFFFFFF, alpha: 0.4)))
        return parts
    }
}
