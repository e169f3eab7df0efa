// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKit

struct OrientationTests {
    /// The 3×2 image  a b c / d e f, each pixel's red channel its letter index.
    static let abcdef: PixelBuffer = {
        var p = PixelBuffer(width: 3, height: 2)
        for i in 0..<6 { p[i % 3, i / 3] = RGBA(UInt8(i), 0, 0) }
        return p
    }()

    static func letters(_ p: PixelBuffer) -> String {
        (0..<p.height).map { y in
            String((0..<p.width).map { x in Character(UnicodeScalar(UInt8(97) + p[x, y].r)) })
        }.joined(separator: "/")
    }

    /// What each orientation must display, worked out from the EXIF definitions.
    @Test(arguments: [
        (ExifOrientation.up, "abc/def"),
        (.upMirrored, "cba/fed"),
        (.down, "fed/cba"),
        (.downMirrored, "def/abc"),
        (.leftMirrored, "ad/be/cf"),
        (.right, "da/eb/fc"),
        (.rightMirrored, "fc/eb/da"),
        (.left, "cf/be/ad"),
    ])
    func eachOrientationTurnsThePixelsAsDefined(_ orientation: ExifOrientation, _ expected: String) {
        let out = Self.abcdef.applying(orientation)
        #expect(Self.letters(out) == expected)
        #expect((out.width, out.height) == (orientation.swapsAxes ? (2, 3) : (3, 2)))
    }

    @Test func theBoxIsSwappedForOrientationsFiveToEight() {
        let options = ResizeOptions(width: 88, height: 44, mode: .fill)
        let stored = ImageProcessors.Resize.storedOptions(options, orientation: .right)
        #expect(stored.width == 44 && stored.height == 88)
        let same = ImageProcessors.Resize.storedOptions(options, orientation: .down)
        #expect(same.width == 88 && same.height == 44)
    }

    @Test(arguments: ExifOrientation.allCases)
    func aTurnedSourceGivesTheSameThumbnailAsAnUprightOne(_ orientation: ExifOrientation) {
        // Store an upright picture as a camera would for `orientation` (apply the inverse turn),
        // then let the resize path turn it back: the result must equal the upright thumbnail.
        let upright = ResamplerTests.noise(width: 60, height: 40, seed: 5, opaque: true)
        let inverse: [ExifOrientation: ExifOrientation] = [.right: .left, .left: .right]
        let stored = upright.applying(inverse[orientation] ?? orientation)
        let resize = ImageProcessors.Resize(ResizeOptions(width: 30, height: 12, mode: .fill))
        let expected = resize.process(upright)
        let got = resize.process(
            stored, originalWidth: stored.width, originalHeight: stored.height, orientation: orientation)
        #expect(got == expected)
    }
}
