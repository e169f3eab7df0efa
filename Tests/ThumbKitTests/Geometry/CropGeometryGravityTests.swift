// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKit

/// Where a fill's window goes for each gravity, worked out by hand.
///
/// 800×400 → 100×100: scale = max(100/800, 100/400) = 1/4, the scaled image is 200×100, so 100
/// output pixels (400 source pixels) overflow across. Centred, the window starts 50 output
/// pixels in: x = 50 / (1/4) = 200. West pins it to 0, east to the whole overflow, 400. A focus
/// at x = 0.6 centres it on 0.6 × 200 = 120 output pixels: start 120 − 50 = 70 of the 100 of
/// overflow, x = 70 × 4 = 280. At x = 0.1 it would start at −30: clamped to 0; at 0.9 at 130:
/// clamped to 100, x = 400.
struct CropGeometryGravityTests {
    static func rect(_ source: (Int, Int), _ box: (Int, Int), _ gravity: Gravity, upscale: Bool = true) -> SourceRect {
        CropGeometry.plan(
            sourceWidth: source.0, sourceHeight: source.1,
            options: ResizeOptions(width: box.0, height: box.1, upscale: upscale, gravity: gravity)
        ).sourceRect
    }

    static let cases: [(source: (Int, Int), box: (Int, Int), gravity: Gravity, x: Double, y: Double)] = [
        ((800, 400), (100, 100), .centre, 200, 0),
        ((800, 400), (100, 100), .west, 0, 0),
        ((800, 400), (100, 100), .east, 400, 0),
        ((800, 400), (100, 100), .north, 200, 0),
        ((800, 400), (100, 100), .south, 200, 0),
        ((800, 400), (100, 100), .northEast, 400, 0),
        ((800, 400), (100, 100), .southWest, 0, 0),
        ((800, 400), (100, 100), try! .focus(x: 0.6, y: 0), 280, 0),
        ((800, 400), (100, 100), try! .focus(x: 0.1, y: 1), 0, 0),
        ((800, 400), (100, 100), try! .focus(x: 0.9, y: 0.5), 400, 0),
        // Portrait: 400×800 → 100×100, 400 source pixels overflow down.
        ((400, 800), (100, 100), .north, 0, 0),
        ((400, 800), (100, 100), .south, 0, 400),
        ((400, 800), (100, 100), .east, 0, 200),
        ((400, 800), (100, 100), .southEast, 0, 400),
        // A focus at y = 0.75 centres on 150 of 200 output pixels: start 100 = the whole overflow.
        ((400, 800), (100, 100), try! .focus(x: 0, y: 0.75), 0, 400),
        // y = 0.4: start 80 − 50 = 30 output pixels, 120 source pixels.
        ((400, 800), (100, 100), try! .focus(x: 0, y: 0.4), 0, 120),
        // 640×480 → 44×44 (the UIKit row of CropGeometryTests): 160 source pixels overflow.
        ((640, 480), (44, 44), .centre, 80, 0),
        ((640, 480), (44, 44), .east, 160, 0),
        ((640, 480), (44, 44), .west, 0, 0),
        // Shifts in output pixels (×4 in source pixels): centre +20 starts at 70, x = 280; east
        // moved 30 left starts at 70 too; west +200 is clamped to the far edge, 400; a shift
        // along an axis with no overflow moves nothing.
        ((800, 400), (100, 100), Gravity.centre.shifted(x: 20, y: 0), 280, 0),
        ((800, 400), (100, 100), Gravity.east.shifted(x: -30, y: 0), 280, 0),
        ((800, 400), (100, 100), Gravity.west.shifted(x: 200, y: 0), 400, 0),
        ((800, 400), (100, 100), Gravity.west.shifted(x: -5, y: 0), 0, 0),
        ((800, 400), (100, 100), Gravity.north.shifted(x: 0, y: 30), 200, 0),
        ((400, 800), (100, 100), Gravity.north.shifted(x: 0, y: 10), 0, 40),
        ((400, 800), (100, 100), Gravity.south.shifted(x: 0, y: -10), 0, 360),
    ]

    @Test(arguments: cases.indices)
    func theWindowGoesWhereTheGravitySays(index: Int) {
        let c = Self.cases[index]
        let r = Self.rect(c.source, c.box, c.gravity)
        let centred = Self.rect(c.source, c.box, .centre)
        #expect(abs(r.x - c.x) < 1e-9 && abs(r.y - c.y) < 1e-9, "\(c.gravity): \(r)")
        // The window's size never depends on the gravity.
        #expect(r.width == centred.width && r.height == centred.height)
    }

    /// Pinned windows are exact, with no rounding: the start is exactly 0, and the end exactly
    /// the source's edge.
    @Test func edgesArePinnedExactly() {
        let west = Self.rect((640, 480), (44, 44), .west)
        #expect(west.x == 0 && west.x.sign == .plus)
        let east = Self.rect((640, 480), (44, 44), .east)
        #expect(abs(east.x + east.width - 640) < 1e-12)
        let south = Self.rect((451, 3000), (88, 88), .south)
        #expect(abs(south.y + south.height - 3000) < 1e-9)
    }

    /// Without upscaling, a source smaller than the box on one side keeps scale 1: 60×30 into
    /// 44×44 is 44×30, cropped from 60 across (16 pixels of overflow, 8 when centred).
    @Test func withoutUpscalingTheOverflowIsInSourcePixels() {
        #expect(Self.rect((60, 30), (44, 44), .centre, upscale: false).x == 8)
        #expect(Self.rect((60, 30), (44, 44), .west, upscale: false).x == 0)
        #expect(Self.rect((60, 30), (44, 44), .east, upscale: false).x == 16)
        #expect(Self.rect((60, 30), (44, 44), try! .focus(x: 0.5, y: 0), upscale: false).x == 8)
        // No overflow at all: every gravity is the whole source.
        #expect(
            Self.rect((20, 10), (44, 44), .southEast, upscale: false) == SourceRect(x: 0, y: 0, width: 20, height: 10))
    }

    /// A focus on the centre plans exactly the centred window, bit for bit, on every row of the
    /// UIKit table: centred fills are untouched by the gravity arithmetic.
    @Test(arguments: CropGeometryTests.fillRows)
    func aCentredFocusIsTheCentreCropBitForBit(_ row: CropGeometryTests.Row) throws {
        let centre = ResizeOptions(width: row.target.0, height: row.target.1, upscale: row.upscale)
        let focus = ResizeOptions(
            width: row.target.0, height: row.target.1, upscale: row.upscale, gravity: try .focus(x: 0.5, y: 0.5))
        let a = CropGeometry.plan(sourceWidth: row.source.0, sourceHeight: row.source.1, options: centre)
        let b = CropGeometry.plan(sourceWidth: row.source.0, sourceHeight: row.source.1, options: focus)
        #expect(a == b)
    }

    @Test func otherModesIgnoreTheGravity() {
        for mode in [ResizeMode.fit, .pad, .stretch] {
            let plain = CropGeometry.plan(
                sourceWidth: 640, sourceHeight: 480, options: ResizeOptions(width: 44, height: 44, mode: mode))
            let east = CropGeometry.plan(
                sourceWidth: 640, sourceHeight: 480,
                options: ResizeOptions(width: 44, height: 44, mode: mode, gravity: .east))
            #expect(plain == east, "\(mode)")
        }
    }

    /// Directions are upright: through the whole resize, with every EXIF orientation, west keeps
    /// the upright picture's left half and north its top half.
    @Test(arguments: ExifOrientation.allCases)
    func gravityIsUprightWhateverTheOrientation(orientation: ExifOrientation) {
        let red = RGBA(255, 0, 0)
        let blue = RGBA(0, 0, 255)
        // Upright 40×20: red left half, blue right half; and 20×40: red top, blue bottom.
        var wide = PixelBuffer(width: 40, height: 20, fill: blue)
        for y in 0..<20 { for x in 0..<20 { wide[x, y] = red } }
        var tall = PixelBuffer(width: 20, height: 40, fill: blue)
        for y in 0..<20 { for x in 0..<20 { tall[x, y] = red } }
        for (upright, gravity, expected) in [
            (wide, Gravity.west, red), (wide, .east, blue), (tall, .north, red), (tall, .south, blue),
        ] {
            let stored = upright.applying(Self.inverse(orientation))
            let out = ImageProcessors.Resize(ResizeOptions(width: 8, height: 8, kernel: .box, gravity: gravity))
                .process(stored, originalWidth: stored.width, originalHeight: stored.height, orientation: orientation)
            #expect(out.width == 8 && out.height == 8)
            #expect(out[0, 0] == expected && out[7, 7] == expected, "\(gravity)")
        }
    }

    /// The orientation that undoes `orientation`.
    static func inverse(_ orientation: ExifOrientation) -> ExifOrientation {
        switch orientation {
        case .right: .left
        case .left: .right
        default: orientation
        }
    }
}
