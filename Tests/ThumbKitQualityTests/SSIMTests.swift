// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKit
@testable import ThumbKitQuality

/// C1 = (0.01·255)² = 6.5025 and C2 = (0.03·255)² = 58.5225, as scikit-image's defaults.
private let c1 = 6.5025
private let c2 = 58.5225

struct SSIMTests {
    @Test func identicalImagesScoreExactlyOne() throws {
        let a = qualityTestImage(width: 19, height: 11) { x, y, c in UInt8((x * 13 + y * 29 + c * 71) % 256) }
        #expect(try ImageComparison.ssim(a, a) == 1)
    }

    @Test(arguments: [(0, 255), (100, 101), (100, 150), (30, 200), (255, 254)])
    func twoConstantImagesScoreTheLuminanceTermAlone(first: Int, second: Int) throws {
        // Constant images have σa = σb = σab = 0, so the structure term is C2 / C2 = 1 in every
        // window and SSIM = (2·c1·c2 + C1) / (c1² + c2² + C1), the same in all three channels.
        let a = PixelBuffer(width: 9, height: 8, fill: RGBA(UInt8(first), UInt8(first), UInt8(first)))
        let b = PixelBuffer(width: 9, height: 8, fill: RGBA(UInt8(second), UInt8(second), UInt8(second)))
        let f = Double(first), s = Double(second)
        let expected = (2 * f * s + c1) / (f * f + s * s + c1)
        #expect(abs(try ImageComparison.ssim(a, b) - expected) < 1e-12)
    }

    @Test func aSevenBySevenImageHasOneWindowWorkedOutByHand() throws {
        // a: 49 grey pixels of 100. b: the same but the centre pixel is 149.
        //   μa = 100, μb = (48·100 + 149) / 49 = 101
        //   σa² = 0, σab = 0 (a is constant)
        //   σb² = (48·(100 − 101)² + (149 − 101)²) / (49 − 1) = (48 + 2304) / 48 = 49
        //   luminance = (2·100·101 + C1) / (100² + 101² + C1) = (20200 + C1) / (20201 + C1)
        //   structure = (2·0 + C2) / (0 + 49 + C2)
        // One window, the same in R, G and B: SSIM = luminance · structure ≈ 0.544254.
        let a = PixelBuffer(width: 7, height: 7, fill: RGBA(100, 100, 100))
        var b = a
        b[3, 3] = RGBA(149, 149, 149)
        let expected = (20200 + c1) / (20201 + c1) * (c2 / (49 + c2))
        #expect(abs(try ImageComparison.ssim(a, b) - expected) < 1e-12)
        #expect(abs(expected - 0.544254) < 1e-6)
    }

    @Test func theScoreIsTheMeanOfTheThreeChannels() throws {
        // Only R differs, by the 7×7 case above; G and B are identical (SSIM 1).
        let a = PixelBuffer(width: 7, height: 7, fill: RGBA(100, 100, 100))
        var b = a
        b[3, 3] = RGBA(149, 100, 100)
        let red = (20200 + c1) / (20201 + c1) * (c2 / (49 + c2))
        #expect(abs(try ImageComparison.ssim(a, b) - (red + 1 + 1) / 3) < 1e-12)
    }

    @Test func onlyWindowsWhollyInsideTheImageCount() throws {
        // 8×7 has two windows (x = 0...6 and x = 1...7). A change in column 7 is seen by the
        // second window only: SSIM = (1 + s) / 2 where s is the 7×7 hand value with the changed
        // pixel anywhere in the window (the sums do not depend on where it is).
        let a = PixelBuffer(width: 8, height: 7, fill: RGBA(100, 100, 100))
        var b = a
        b[7, 0] = RGBA(149, 149, 149)
        let s = (20200 + c1) / (20201 + c1) * (c2 / (49 + c2))
        #expect(abs(try ImageComparison.ssim(a, b) - (1 + s) / 2) < 1e-12)
    }

    @Test func transparentPixelsAreJudgedOverWhite() throws {
        // Transparent black composites to white, so it matches opaque white exactly, and
        // (0, 0, 0, 128) composites to 255·127/255 = 127, matching opaque grey 127.
        let clear = PixelBuffer(width: 8, height: 8, fill: .transparent)
        let white = PixelBuffer(width: 8, height: 8, fill: .white)
        #expect(try ImageComparison.ssim(clear, white) == 1)
        let halfBlack = PixelBuffer(width: 8, height: 8, fill: RGBA(0, 0, 0, 128))
        let grey = PixelBuffer(width: 8, height: 8, fill: RGBA(127, 127, 127))
        #expect(try ImageComparison.ssim(halfBlack, grey) == 1)
        // Against black it is the constant case 127 vs 0.
        let black = PixelBuffer(width: 8, height: 8, fill: .black)
        #expect(abs(try ImageComparison.ssim(halfBlack, black) - c1 / (127 * 127 + c1)) < 1e-12)
    }

    @Test(arguments: [
        // Reference values from scikit-image 0.26.0 (numpy 2.4.6), computed once with
        //   structural_similarity(a, b, channel_axis=2, data_range=255)
        // on uint8 arrays of shape (17, 23, 3) filled by the same formulas as `qualityReferencePair`
        // (a Python loop over y, x, channel). Python is not needed to run this test.
        ("patterned vs slightly noisy", 0, 0.9963421383776234),
        ("patterned vs scrambled", 1, 0.0023031284187506555),
        ("gradient vs noisy gradient", 2, 0.8403606867072835),
    ])
    func matchesScikitImageOnPinnedImages(label: String, pair: Int, expected: Double) throws {
        let (a, b) = qualityReferencePair(pair)
        #expect(abs(try ImageComparison.ssim(a, b) - expected) < 1e-9, "\(label)")
    }

    @Test(arguments: [(7, 7), (8, 7), (7, 12), (13, 9), (31, 20)])
    func matchesAStraightforwardPerWindowImplementation(width: Int, height: Int) throws {
        var rng = SplitMix64(seed: UInt64(width * 1000 + height))
        let a = qualityTestImage(width: width, height: height) { _, _, _ in
            UInt8(truncatingIfNeeded: rng.next())
        }
        let b = qualityTestImage(width: width, height: height) { x, y, c in
            let v = Int(a[x, y].channel(c)) + Int(rng.next() % 61) - 30
            return UInt8(min(255, max(0, v)))
        }
        let fast = try ImageComparison.ssim(a, b)
        #expect(abs(fast - referenceSSIM(a, b)) < 1e-9)
        #expect(fast < 1)
    }

    @Test func differentSizesThrowAnErrorNamingBoth() {
        let a = PixelBuffer(width: 8, height: 8, fill: .white)
        let b = PixelBuffer(width: 8, height: 9, fill: .white)
        let expected = ComparisonError.sizeMismatch(
            first: .init(width: 8, height: 8), second: .init(width: 8, height: 9))
        #expect(throws: expected) { try ImageComparison.ssim(a, b) }
        #expect(expected.description == "cannot compare images of different sizes: 8x8 and 8x9")
    }

    @Test(arguments: [(6, 7), (7, 6), (1, 1)])
    func imagesSmallerThanOneWindowThrow(width: Int, height: Int) {
        let a = PixelBuffer(width: width, height: height, fill: .white)
        #expect(throws: ComparisonError.tooSmallForSSIM(.init(width: width, height: height))) {
            try ImageComparison.ssim(a, a)
        }
    }

    @Test func compareReturnsTheSameSSIMAndPSNRAsTheSingleMetrics() throws {
        let (a, b) = qualityReferencePair(2)
        let result = try ImageComparison.compare(a, b)
        #expect(result.ssim == (try ImageComparison.ssim(a, b)))
        #expect(result.psnr == (try ImageComparison.psnr(a, b)))
    }
}

// MARK: - Helpers

/// The image pairs behind the pinned scikit-image values (SSIMTests and PSNRTests), 23×17,
/// opaque. Pair 0: a patterned image and a copy shifted by −10...+10; pair 1: the pattern and
/// (7·v + 50) mod 256; pair 2: a smooth gradient and a copy with ±15 noise.
func qualityReferencePair(_ pair: Int) -> (PixelBuffer, PixelBuffer) {
    let pattern: (Int, Int, Int) -> Int = { x, y, c in
        (x * x * 3 + y * 7 + c * 40 + (x * y * 13) % 29) % 256
    }
    let gradient: (Int, Int, Int) -> Int = { x, y, c in x * 6 + y * 4 + c * 20 }
    let clamp: (Int) -> UInt8 = { UInt8(min(255, max(0, $0))) }
    switch pair {
    case 0:
        return (
            qualityTestImage(width: 23, height: 17) { x, y, c in UInt8(pattern(x, y, c)) },
            qualityTestImage(width: 23, height: 17) { x, y, c in
                clamp(pattern(x, y, c) + (x * 5 + y * 11 + c * 3) % 21 - 10)
            }
        )
    case 1:
        return (
            qualityTestImage(width: 23, height: 17) { x, y, c in UInt8(pattern(x, y, c)) },
            qualityTestImage(width: 23, height: 17) { x, y, c in UInt8((pattern(x, y, c) * 7 + 50) % 256) }
        )
    default:
        return (
            qualityTestImage(width: 23, height: 17) { x, y, c in UInt8(gradient(x, y, c)) },
            qualityTestImage(width: 23, height: 17) { x, y, c in
                clamp(gradient(x, y, c) + ((x * 7 + y * 13 + c * 5) % 11 - 5) * 3)
            }
        )
    }
}

/// An opaque image whose R, G, B samples come from `value(x, y, channel)`, filled row by row.
func qualityTestImage(width: Int, height: Int, _ value: (Int, Int, Int) -> UInt8) -> PixelBuffer {
    var image = PixelBuffer(width: width, height: height, fill: .black)
    for y in 0..<height {
        for x in 0..<width {
            image[x, y] = RGBA(value(x, y, 0), value(x, y, 1), value(x, y, 2))
        }
    }
    return image
}

private extension RGBA {
    /// R, G or B by index (0, 1, 2).
    func channel(_ c: Int) -> UInt8 { c == 0 ? r : c == 1 ? g : b }
}

/// scikit-image's definition written out window by window in floating point (opaque images only):
/// means, sample (co)variances, the SSIM formula, the mean over valid windows, then over channels.
private func referenceSSIM(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
    let n = 49.0
    var channelMeans: [Double] = []
    for c in 0..<3 {
        var total = 0.0
        for top in 0...(a.height - 7) {
            for left in 0...(a.width - 7) {
                var mx = 0.0, my = 0.0
                for y in top..<(top + 7) {
                    for x in left..<(left + 7) {
                        mx += Double(a[x, y].channel(c)) / n
                        my += Double(b[x, y].channel(c)) / n
                    }
                }
                var vx = 0.0, vy = 0.0, vxy = 0.0
                for y in top..<(top + 7) {
                    for x in left..<(left + 7) {
                        let dx = Double(a[x, y].channel(c)) - mx
                        let dy = Double(b[x, y].channel(c)) - my
                        vx += dx * dx / (n - 1)
                        vy += dy * dy / (n - 1)
                        vxy += dx * dy / (n - 1)
                    }
                }
                total += (2 * mx * my + c1) * (2 * vxy + c2) / ((mx * mx + my * my + c1) * (vx + vy + c2))
            }
        }
        channelMeans.append(total / Double((a.width - 6) * (a.height - 6)))
    }
    return channelMeans.reduce(0, +) / 3
}

/// A small deterministic generator (SplitMix64) for test images.
private struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
