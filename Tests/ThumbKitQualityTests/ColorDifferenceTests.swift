// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKit
@testable import ThumbKitQuality

/// CIEDE2000 against the published test data, and on images.
struct ColorDifferenceTests {
    /// Rows of Table 1 of Sharma, Wu & Dalal, "The CIEDE2000 color-difference formula:
    /// implementation notes, supplementary test data, and mathematical observations", Color Res.
    /// Appl. 30(1), 2005: (L*, a*, b*) pairs and their ΔE₀₀ to four decimals. Rows 9–12 and 13–15
    /// cross the hue discontinuity, where careless implementations go wrong.
    static let sharmaPairs: [(ColorDifference.Lab, ColorDifference.Lab, Double)] = [
        (.init(50, 2.6772, -79.7751), .init(50, 0, -82.7485), 2.0425),  // row 1
        (.init(50, 3.1571, -77.2803), .init(50, 0, -82.7485), 2.8615),  // row 2
        (.init(50, 2.8361, -74.0200), .init(50, 0, -82.7485), 3.4412),  // row 3
        (.init(50, -1.3802, -84.2814), .init(50, 0, -82.7485), 1.0000),  // row 4
        (.init(50, 0, 0), .init(50, -1, 2), 2.3669),  // row 7
        (.init(50, 2.49, -0.001), .init(50, -2.49, 0.0009), 7.1792),  // row 9
        (.init(50, 2.49, -0.001), .init(50, -2.49, 0.0011), 7.2195),  // row 11
        (.init(50, -0.001, 2.49), .init(50, 0.0009, -2.49), 4.8045),  // row 13
        (.init(50, -0.001, 2.49), .init(50, 0.0011, -2.49), 4.7461),  // row 15
        (.init(50, 2.5, 0), .init(50, 0, -2.5), 4.3065),  // row 16
        (.init(50, 2.5, 0), .init(73, 25, -18), 27.1492),  // row 17
        (.init(50, 2.5, 0), .init(61, -5, 29), 22.8977),  // row 18
        (.init(50, 2.5, 0), .init(56, -27, -3), 31.9030),  // row 19
        (.init(50, 2.5, 0), .init(58, 24, 15), 19.4535),  // row 20
        (.init(60.2574, -34.0099, 36.2677), .init(60.4626, -34.1751, 39.4387), 1.2644),  // row 25
        (.init(63.0109, -31.0961, -5.8663), .init(62.8187, -29.7946, -4.0864), 1.2630),  // row 26
    ]

    @Test(arguments: sharmaPairs.indices)
    func publishedPairHasItsPublishedDifference(_ row: Int) {
        let (a, b, expected) = Self.sharmaPairs[row]
        #expect(abs(ColorDifference.ciede2000(a, b) - expected) < 0.00005)
        // ΔE₀₀ is symmetric.
        #expect(abs(ColorDifference.ciede2000(b, a) - expected) < 0.00005)
    }

    @Test func sRGBWhiteAndBlackAreTheEndsOfLightness() {
        let white = ColorDifference.lab(255, 255, 255)
        let black = ColorDifference.lab(0, 0, 0)
        #expect(abs(white.l - 100) < 1e-6 && abs(white.a) < 1e-6 && abs(white.b) < 1e-6)
        #expect(abs(black.l) < 1e-9)
        #expect(abs(ColorDifference.ciede2000(white, black) - 100) < 1e-6)
    }

    @Test func sRGBRedHasItsTextbookLab() {
        // sRGB red under D65 is about L* 53.24, a* 80.09, b* 67.20.
        let red = ColorDifference.lab(255, 0, 0)
        #expect(abs(red.l - 53.24) < 0.01 && abs(red.a - 80.09) < 0.02 && abs(red.b - 67.20) < 0.02)
    }

    @Test func imagesAreComparedPixelByPixel() throws {
        let a = PixelBuffer(width: 3, height: 2, fill: RGBA(120, 60, 30))
        var b = a
        b[2, 1] = RGBA(30, 60, 120)
        let differences = try ColorDifference.ciede2000(a, b)
        #expect(differences.count == 6)
        #expect(differences.prefix(5).allSatisfy { $0 == 0 })
        #expect(differences[5] > 20)
        let summary = try ColorDifference.summary(a, b)
        #expect(summary.max == differences[5] && abs(summary.mean - differences[5] / 6) < 1e-9)
        #expect(throws: ComparisonError.self) { try ColorDifference.ciede2000(a, PixelBuffer(width: 2, height: 3)) }
    }
}
