// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKit

@testable import ThumbKitServe

/// imgproxy's `g:` as the engine's `Gravity`: every value mapped, bad focus points refused with
/// a 400 (never a trap), and `g:ce` planning exactly what `thumb --fit fill` plans.
@Suite struct ImgproxyGravityTests {
    let parser = ImgproxyURLParser()

    func resize(_ path: String, source: (Int, Int) = (640, 480)) throws -> ResizeOptions {
        try parser.parse(path: path + "/plain/local:///a").resizeOptions(sourceWidth: source.0, sourceHeight: source.1)
    }

    @Test(arguments: [
        ("ce", Gravity.centre), ("no", .north), ("so", .south), ("ea", .east), ("we", .west),
        ("noea", .northEast), ("nowe", .northWest), ("soea", .southEast), ("sowe", .southWest), ("sm", .smart),
        ("fp:0.25:0.75", try! Gravity.focus(x: 0.25, y: 0.75)), ("fp:1:0", try! Gravity.focus(x: 1, y: 0)),
        ("fp:.5:0.0000001", try! Gravity.focus(x: 0.5, y: 0)),
    ])
    func everyGravityMapsOntoTheEngine(g: String, gravity: Gravity) throws {
        let fill = try resize("/rs:fill:100:100/g:\(g)")
        #expect(fill.mode == .fill && fill.gravity == gravity)
        // fill-down and auto (when it fills) carry it too.
        #expect(try resize("/rs:fill-down:100:100/g:\(g)").gravity == gravity)
        #expect(try resize("/rs:auto:200:100/g:\(g)").gravity == gravity)
    }

    @Test(arguments: [
        "fp:nan:0.5", "fp:0.5:NaN", "fp:inf:0", "fp:0:-inf", "fp:infinity:0", "fp:1e-300:0", "fp:-0:0",
        "fp:0:-0.0", "fp:1.5:0", "fp:0:1.0000001", "fp:-0.1:0", "fp:0x1p-1:0", "fp:0.5", "fp:0.5:0.5:1",
    ])
    func aBadFocusPointIsRefused(g: String) {
        #expect(throws: ImgproxyError.self) { try parser.parse(path: "/rs:fill:100:100/g:\(g)/plain/local:///a") }
    }

    /// Centre gravity plans the same resize as `thumb --fit fill -s 300x200 --no-upscale`: the
    /// same identifier (the output's key) and the same geometry.
    @Test func fillWithCentreGravityIsThumbsFill() throws {
        for path in ["/rs:fill:300:200", "/rs:fill:300:200/g:ce"] {
            let served = try resize(path)
            let thumb = ResizeOptions(width: 300, height: 200, mode: .fill, upscale: false)
            #expect(served.identifier == thumb.identifier)
            #expect(
                CropGeometry.plan(sourceWidth: 640, sourceHeight: 480, options: served)
                    == CropGeometry.plan(sourceWidth: 640, sourceHeight: 480, options: thumb))
        }
    }

    @Test func theResizeIdentifierNamesAGravityOtherThanCentre() throws {
        #expect(try resize("/rs:fill:300:200/g:sm").identifier.hasSuffix(",g=smart"))
        #expect(try resize("/rs:fill:300:200/g:fp:0.5:0.25").identifier.hasSuffix(",g=focus:0.5,0.25"))
        #expect(try resize("/rs:fill:300:200/g:soea").identifier.hasSuffix(",g=south-east"))
        // A fit ignores the gravity, and so does its identifier.
        #expect(try resize("/rs:fit:300:200/g:sm").identifier == (try resize("/rs:fit:300:200")).identifier)
    }

    @Test func theRequestIdentifierNamesTheGravity() throws {
        let smart = try parser.parse(path: "/rs:fill:300:200/g:sm/plain/local:///a").identifier
        let focus = try parser.parse(path: "/rs:fill:300:200/g:fp:0.5:0.25/plain/local:///a").identifier
        let centre = try parser.parse(path: "/rs:fill:300:200/plain/local:///a").identifier
        #expect(smart.contains(",g=sm,") && focus.contains(",g=fp:0.5:0.25,") && centre.contains(",g=ce,"))
        #expect(Set([smart, focus, centre]).count == 3)
    }

    /// Through the engine: `g:ea` keeps the right of the picture.
    @Test func eastKeepsTheRightSide() throws {
        var image = PixelBuffer(width: 200, height: 100, fill: RGBA(200, 0, 0))
        for y in 0..<100 { for x in 100..<200 { image[x, y] = RGBA(0, 0, 200) } }
        let options = try resize("/rs:fill:20:20/g:ea", source: (200, 100))
        let out = ImageProcessors.Resize(options).process(image)
        // Every pixel is blue (Lanczos lets a little red ring in at the left edge).
        #expect(out.width == 20 && (0..<400).allSatisfy { out.pixels[$0 * 4 + 2] > 150 && out.pixels[$0 * 4] < 60 })
    }

    /// imgproxy's offsets: pixels (times `dpr`) when 1 or more, a fraction of the scaled image
    /// below 1; inwards from the edge a gravity pins, right or down along an axis it centres.
    @Test(arguments: [
        ("/rs:fill:100:100/g:ea:30", (800, 400), Gravity.east.shifted(x: -30, y: 0)),
        ("/rs:fill:100:100/g:we:30", (800, 400), Gravity.west.shifted(x: 30, y: 0)),
        ("/rs:fill:100:100/g:ce:-12:7", (800, 400), Gravity.centre.shifted(x: -12, y: 7)),
        ("/rs:fill:100:100/g:no:10:5", (400, 800), Gravity.north.shifted(x: 10, y: 5)),
        ("/rs:fill:100:100/g:soea:10:5", (400, 800), Gravity.southEast.shifted(x: -10, y: -5)),
        ("/rs:fill:50:50/dpr:2/g:so:0:5", (400, 800), Gravity.south.shifted(x: 0, y: -10)),
        // 800×400 to 100×100 scales by 1/4: the scaled image is 200 wide, and 0.1 of it is 20.
        ("/rs:fill:100:100/g:we:0.1", (800, 400), Gravity.west.shifted(x: 20, y: 0)),
        ("/rs:fill:100:100/g:no", (400, 800), Gravity.north),
    ])
    func gravityOffsetsMoveTheWindowAsImgproxyDoes(path: String, source: (Int, Int), gravity: Gravity) throws {
        let options = try resize(path, source: source)
        #expect(options.gravity == gravity, "\(options.gravity)")
    }

    /// `g:no:0:10` takes its window 10 output pixels lower than `g:no` (40 source pixels at 1/4).
    @Test func anOffsetChangesTheWindowAndTheIdentifier() throws {
        let pinned = try resize("/rs:fill:100:100/g:no", source: (400, 800))
        let moved = try resize("/rs:fill:100:100/g:no:0:10", source: (400, 800))
        let a = CropGeometry.plan(sourceWidth: 400, sourceHeight: 800, options: pinned).sourceRect
        let b = CropGeometry.plan(sourceWidth: 400, sourceHeight: 800, options: moved).sourceRect
        #expect(a.y == 0 && b.y == 40 && a.height == b.height)
        #expect(pinned.identifier != moved.identifier)
    }
}
