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
}
