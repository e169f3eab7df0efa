// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKit

/// Expected crop rectangles worked out by hand from `imageByScalingAndCroppingForSize:`:
/// scale = max(tw/w, th/h), the scaled image centred on the canvas, the canvas cropping it.
/// For example 640×480 → 44×44: scale = 44/480, scaled width 58.67, origin x = −7.33, so the
/// crop starts 7.33 / (44/480) = 80 source pixels in and is 44 / (44/480) = 480 wide.
struct CropGeometryTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let source: (Int, Int)
        let target: (Int, Int)
        let rect: (Double, Double, Double, Double)
        let output: (Int, Int)
        var upscale = true
        var testDescription: String {
            "\(source.0)x\(source.1) → \(target.0)x\(target.1)\(upscale ? "" : " no-upscale")"
        }
    }

    static let fillRows: [Row] = [
        Row(source: (640, 480), target: (44, 44), rect: (80, 0, 480, 480), output: (44, 44)),
        Row(source: (480, 640), target: (44, 44), rect: (0, 80, 480, 480), output: (44, 44)),
        Row(source: (100, 50), target: (10, 10), rect: (25, 0, 50, 50), output: (10, 10)),
        Row(source: (101, 50), target: (10, 10), rect: (25.5, 0, 50, 50), output: (10, 10)),
        Row(source: (3, 1), target: (1, 1), rect: (1, 0, 1, 1), output: (1, 1)),
        Row(source: (1, 1), target: (44, 44), rect: (0, 0, 1, 1), output: (44, 44)),
        Row(source: (10, 30000), target: (44, 44), rect: (0, 14995, 10, 10), output: (44, 44)),
        Row(source: (30000, 10), target: (88, 88), rect: (14995, 0, 10, 10), output: (88, 88)),
        Row(source: (640, 480), target: (88, 44), rect: (0, 80, 640, 320), output: (88, 44)),
        Row(source: (1800, 1200), target: (88, 88), rect: (300, 0, 1200, 1200), output: (88, 88)),
        Row(source: (5120, 2880), target: (88, 88), rect: (1120, 0, 2880, 2880), output: (88, 88)),
        Row(source: (7, 5), target: (3, 3), rect: (1, 0, 5, 5), output: (3, 3)),
        Row(source: (8, 5), target: (3, 3), rect: (1.5, 0, 5, 5), output: (3, 3)),
        Row(source: (5, 8), target: (3, 2), rect: (0, 7.0 / 3.0, 5, 10.0 / 3.0), output: (3, 2)),
        Row(source: (100, 100), target: (44, 44), rect: (0, 0, 100, 100), output: (44, 44)),
        Row(source: (100, 100), target: (60, 30), rect: (0, 25, 100, 50), output: (60, 30)),
        Row(source: (1512, 2688), target: (44, 44), rect: (0, 588, 1512, 1512), output: (44, 44)),
        Row(source: (451, 300), target: (88, 88), rect: (75.5, 0, 300, 300), output: (88, 88)),
        Row(source: (193, 31431), target: (44, 44), rect: (0, 15619, 193, 193), output: (44, 44)),
        Row(source: (1, 1000), target: (44, 44), rect: (0, 499.5, 1, 1), output: (44, 44)),
        Row(source: (1000, 1), target: (88, 88), rect: (499.5, 0, 1, 1), output: (88, 88)),
        Row(source: (2, 3), target: (88, 132), rect: (0, 0, 2, 3), output: (88, 132)),
        Row(source: (20, 10), target: (44, 44), rect: (0, 0, 20, 10), output: (20, 10), upscale: false),
        Row(source: (60, 30), target: (44, 44), rect: (8, 0, 44, 30), output: (44, 30), upscale: false),
        Row(source: (640, 480), target: (44, 44), rect: (80, 0, 480, 480), output: (44, 44), upscale: false),
    ]

    @Test(arguments: fillRows)
    func fillCropsTheLongSideAroundTheCentre(_ row: Row) {
        let options = ResizeOptions(width: row.target.0, height: row.target.1, mode: .fill, upscale: row.upscale)
        let g = CropGeometry.plan(sourceWidth: row.source.0, sourceHeight: row.source.1, options: options)
        #expect(abs(g.sourceRect.x - row.rect.0) < 1e-9)
        #expect(abs(g.sourceRect.y - row.rect.1) < 1e-9)
        #expect(abs(g.sourceRect.width - row.rect.2) < 1e-9)
        #expect(abs(g.sourceRect.height - row.rect.3) < 1e-9)
        #expect(g.outputWidth == row.output.0 && g.outputHeight == row.output.1)
        #expect(g.canvasWidth == g.outputWidth && g.canvasHeight == g.outputHeight)
    }

    @Test(arguments: [
        ((640, 480), (400, 400), (400, 300)),
        ((640, 480), (44, 44), (44, 33)),
        ((451, 300), (256, 256), (256, 170)),
        ((300, 451), (256, 256), (170, 256)),
        ((10, 30000), (256, 256), (1, 256)),
        ((1, 1), (256, 256), (256, 256)),
    ])
    func fitKeepsTheAspectInsideTheBox(_ source: (Int, Int), _ box: (Int, Int), _ expected: (Int, Int)) {
        let g = CropGeometry.plan(
            sourceWidth: source.0, sourceHeight: source.1,
            options: ResizeOptions(width: box.0, height: box.1, mode: .fit))
        #expect(g.outputWidth == expected.0 && g.outputHeight == expected.1)
        #expect(g.sourceRect == SourceRect(x: 0, y: 0, width: Double(source.0), height: Double(source.1)))
    }

    @Test func fitWithoutUpscaleKeepsASmallSourceAsItIs() {
        let g = CropGeometry.plan(
            sourceWidth: 30, sourceHeight: 20,
            options: ResizeOptions(width: 256, height: 256, mode: .fit, upscale: false))
        #expect(g.outputWidth == 30 && g.outputHeight == 20)
    }

    @Test func padCentresTheFittedImageOnTheExactBox() {
        let g = CropGeometry.plan(
            sourceWidth: 640, sourceHeight: 480, options: ResizeOptions(width: 44, height: 44, mode: .pad))
        #expect(g.outputWidth == 44 && g.outputHeight == 33)
        #expect(g.canvasWidth == 44 && g.canvasHeight == 44)
        #expect(g.offsetX == 0 && g.offsetY == 5)
    }

    @Test func stretchUsesTheWholeSourceForTheExactBox() {
        let g = CropGeometry.plan(
            sourceWidth: 640, sourceHeight: 480, options: ResizeOptions(width: 44, height: 10, mode: .stretch))
        #expect(g.outputWidth == 44 && g.outputHeight == 10)
        #expect(g.sourceRect == SourceRect(x: 0, y: 0, width: 640, height: 480))
    }

    @Test func requiredScaleIsOutputPixelsPerSourcePixel() {
        let g = CropGeometry.plan(
            sourceWidth: 640, sourceHeight: 480, options: ResizeOptions(width: 44, height: 44, mode: .fill))
        #expect(abs(g.requiredScale.x - 44.0 / 480.0) < 1e-12)
        #expect(abs(g.requiredScale.y - 44.0 / 480.0) < 1e-12)
    }
}
