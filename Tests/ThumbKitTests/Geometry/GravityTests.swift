// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import ThumbKit

/// `Gravity`: its checked focus point, its names (which key outputs), and its turn into stored
/// orientation.
struct GravityTests {
    @Test(arguments: [
        Double.nan, -.nan, .signalingNaN, .infinity, -.infinity, -0.000001, 1.000001, -1, 2,
        .greatestFiniteMagnitude, -.leastNonzeroMagnitude,
    ])
    func aFocusCoordinateThatIsNotANumberFrom0To1Throws(value: Double) {
        #expect(throws: Gravity.Error.focusOutOfRange(axis: "x")) { try Gravity.focus(x: value, y: 0.5) }
        #expect(throws: Gravity.Error.focusOutOfRange(axis: "y")) { try Gravity.focus(x: 0.5, y: value) }
    }

    @Test func minusZeroAndTinyValuesAreZeroAndTheIdentifierNamesThePointUsed() throws {
        let minusZero = try Gravity.focus(x: -0.0, y: 1e-300)
        #expect(minusZero == (try Gravity.focus(x: 0, y: 0)))
        #expect(minusZero.name == "focus:0,0")
        #expect(try Gravity.focus(x: .leastNonzeroMagnitude, y: 1).name == "focus:0,1")
        #expect(try Gravity.focus(x: 0.25, y: 0.7).name == "focus:0.25,0.7")
        #expect(try Gravity.focus(x: 1.0 / 3.0, y: 0.0000005).name == "focus:0.333333,0.000001")
        // Rounded to the millionth it names, so equal names mean equal gravities.
        #expect(try Gravity.focus(x: 0.1234564, y: 0) == (try Gravity.focus(x: 0.123456, y: 0)))
        #expect(try Gravity.focus(x: 0.25, y: 0.7).focusPoint! == (0.25, 0.7))
    }

    @Test(arguments: [
        ("centre", "centre"), ("center", "centre"), ("north", "north"), ("south-west", "south-west"),
        ("north-east", "north-east"), ("smart", "smart"), ("focus:0.5,0.25", "focus:0.5,0.25"),
        ("focus:1,0", "focus:1,0"), ("focus:.5,1.000", "focus:0.5,1"), ("focus:0.0000001,0", "focus:0,0"),
        ("north+0+10", "north+0+10"), ("center-5+3", "centre-5+3"), ("south-east-12-0", "south-east-12+0"),
        ("west+0000007-1", "west+7-1"), ("north+0+0", "north"),
    ])
    func parsesItsNames(text: String, name: String) throws {
        let gravity = try #require(Gravity(parsing: text))
        #expect(gravity.name == name)
        #expect(Gravity(parsing: gravity.name) == gravity)
    }

    @Test(arguments: [
        "", "middle", "North", "focus:", "focus:0.5", "focus:0.5,", "focus:0.5,0.5,0.5", "focus:nan,0.5",
        "focus:0.5,NaN", "focus:inf,0", "focus:0,infinity", "focus:1e-300,0", "focus:-0,0", "focus:0,-0.1",
        "focus:1.1,0", "focus:0x1p-1,0", "focus: 0.5,0.5", "focus:+0.5,0.5", "focus:0.5.5,0", "focus:.,0",
        "focus:0,00000000000000000000000000001", "smart+1+1", "focus:0.5,0.5+1+1", "north+1", "north++1+1",
        "north+12345678+0", "north+1+", "+1+1", "middle+1+1", "north+1.5+0", "north 1 1",
    ])
    func refusesAnythingElse(text: String) {
        #expect(Gravity(parsing: text) == nil)
    }

    @Test func codableRoundTripsAndRefusesABadPoint() throws {
        let options = ResizeOptions(width: 10, height: 20, gravity: try .focus(x: 0.1, y: 0.9))
        let data = try JSONEncoder().encode(options)
        #expect(try JSONDecoder().decode(ResizeOptions.self, from: data) == options)
        let old = Data(
            #"{"width":10,"height":20,"mode":"fill","kernel":"lanczos3","upscale":true,"linearLight":false,"background":{"r":255,"g":255,"b":255,"a":255}}"#
                .utf8)
        #expect(try JSONDecoder().decode(ResizeOptions.self, from: old).gravity == .centre)
        let bad = Data(#"["focus:nan,0"]"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Gravity].self, from: bad) }
    }

    /// The identifier keys outputs and caches: a centred fill, and every other mode whatever its
    /// gravity, keeps the identifier it had before gravity existed.
    @Test func theIdentifierNamesOnlyAFillsGravityOtherThanCentre() throws {
        let plain = "resize/v1?w=88,h=88,mode=fill,kernel=lanczos3,up=1,linear=0"
        #expect(ResizeOptions(width: 88, height: 88).identifier == plain)
        #expect(ResizeOptions(width: 88, height: 88, gravity: .centre).identifier == plain)
        #expect(ResizeOptions(width: 88, height: 88, gravity: .northEast).identifier == plain + ",g=north-east")
        #expect(ResizeOptions(width: 88, height: 88, gravity: .smart).identifier == plain + ",g=smart")
        #expect(
            ResizeOptions(width: 88, height: 88, gravity: try .focus(x: 0.25, y: 1)).identifier
                == plain + ",g=focus:0.25,1")
        for mode in [ResizeMode.fit, .pad, .stretch] {
            #expect(
                ResizeOptions(width: 88, height: 88, mode: mode, gravity: .smart).identifier
                    == ResizeOptions(width: 88, height: 88, mode: mode).identifier)
        }
        #expect(ResizeOptions(width: 4, height: 4, gravity: .west).scaled(by: 2).gravity == .west)
    }

    /// Every scale of a request keeps the gravity (`checkedScaled` once dropped it, and every
    /// `thumb --gravity` output was centred).
    @Test func everyScaleOfARequestKeepsTheGravity() throws {
        let request = ThumbnailRequest(resize: ResizeOptions(width: 4, height: 4, gravity: .smart), scales: [1, 2, 3])
        let variants = try request.variants(path: "a.png")
        #expect(variants.map(\.gravity) == [.smart, .smart, .smart])
        #expect(ResizeOptions(width: 4, height: 4, gravity: .east).checkedScaled(by: 5)?.gravity == .east)
    }

    /// `storedPoint` inverts `PixelBuffer.applying`: the stored pixel it names is the one shown
    /// at the upright point, for every orientation.
    @Test(arguments: ExifOrientation.allCases)
    func theStoredPointIsTheOneShownUpright(orientation: ExifOrientation) {
        // A 3×3 stored image whose every pixel is different.
        var stored = PixelBuffer(width: 3, height: 3)
        for y in 0..<3 { for x in 0..<3 { stored[x, y] = RGBA(UInt8(x * 3 + y), 0, 0) } }
        let upright = stored.applying(orientation)
        for y in 0..<3 {
            for x in 0..<3 {
                let (sx, sy) = Gravity.storedPoint(x, y, one: 2, orientation: orientation)
                #expect(upright[x, y] == stored[sx, sy], "upright (\(x), \(y))")
            }
        }
    }

    @Test func compassGravitiesTurnWithTheImage() throws {
        // Shown after a 90° clockwise turn, the upright top is the stored left side.
        #expect(Gravity.north.stored(for: .right) == .west)
        #expect(Gravity.northEast.stored(for: .right) == .northWest)
        #expect(Gravity.north.stored(for: .left) == .east)
        #expect(Gravity.west.stored(for: .down) == .east)
        #expect(Gravity.southWest.stored(for: .upMirrored) == .southEast)
        #expect(Gravity.centre.stored(for: .rightMirrored) == .centre)
        #expect(Gravity.smart.stored(for: .left) == .smart)
        #expect(try Gravity.focus(x: 0.25, y: 0.1).stored(for: .right) == (try .focus(x: 0.1, y: 0.75)))
    }

    @Test func aShiftAddsUpIsClampedAndOnlyMovesCompassGravities() throws {
        #expect(Gravity.north.shifted(x: 3, y: 4).shifted(x: -1, y: 1).shift == (2, 5))
        #expect(Gravity.centre.shifted(x: .max, y: .min).shift == (Gravity.maxShift, -Gravity.maxShift))
        #expect(Gravity.centre.shifted(x: 0, y: 0) == .centre)
        #expect(Gravity.smart.shifted(x: 5, y: 5) == .smart)
        let point = try Gravity.focus(x: 0.2, y: 0.3)
        #expect(point.shifted(x: 5, y: 5) == point)
        #expect(Gravity.north.shifted(x: 1, y: 2) != .north)
    }

    /// The shift is a direction in the upright picture, so it turns with the image (as a vector:
    /// no translation), and the compass name turns as before.
    @Test func aShiftTurnsWithTheImage() {
        // Shown turned 90° clockwise, upright "down" is stored "right".
        #expect(Gravity.north.shifted(x: 0, y: 10).stored(for: .right) == Gravity.west.shifted(x: 10, y: 0))
        #expect(Gravity.centre.shifted(x: 7, y: 0).stored(for: .upMirrored) == Gravity.centre.shifted(x: -7, y: 0))
        #expect(Gravity.east.shifted(x: -4, y: 2).stored(for: .down) == Gravity.west.shifted(x: 4, y: -2))
        #expect(Gravity.centre.shifted(x: 7, y: 0).stored(for: .up) == Gravity.centre.shifted(x: 7, y: 0))
    }
}
