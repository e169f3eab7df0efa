// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import ThumbKit
@testable import ThumbKitQuality

struct PSNRTests {
    @Test func identicalImagesHaveInfinitePSNRAndNoDifference() throws {
        let a = qualityTestImage(width: 5, height: 3) { x, y, c in UInt8(x * 40 + y * 9 + c) }
        #expect(try ImageComparison.psnr(a, a) == .infinity)
        #expect(try ImageComparison.meanSquaredError(a, a) == 0)
        #expect(try ImageComparison.meanAbsoluteDifference(a, a) == 0)
        #expect(try ImageComparison.maximumAbsoluteDifference(a, a) == 0)
    }

    @Test(arguments: [(0, 1), (100, 110), (0, 255), (200, 197), (37, 0)])
    func constantImagesDifferingByDHavePSNRTenLog10Of255SquaredOverDSquared(first: Int, second: Int) throws {
        // Every R, G, B sample differs by d = |first − second|, so MSE = d² and
        // PSNR = 10·log10(255² / d²) exactly.
        let a = PixelBuffer(width: 4, height: 3, fill: RGBA(UInt8(first), UInt8(first), UInt8(first)))
        let b = PixelBuffer(width: 4, height: 3, fill: RGBA(UInt8(second), UInt8(second), UInt8(second)))
        let d = Double(abs(first - second))
        #expect(try ImageComparison.meanSquaredError(a, b) == d * d)
        #expect(abs(try ImageComparison.psnr(a, b) - 10 * log10(255 * 255 / (d * d))) < 1e-12)
        #expect(try ImageComparison.meanAbsoluteDifference(a, b) == d)
    }

    @Test func theMeanSquaredErrorIsTakenOverAllThreeChannelsTogether() throws {
        // 2×1 image; only pixel 0's red differs, by 6: MSE = 6² / (2 pixels · 3 channels) = 6,
        // so PSNR = 10·log10(65025 / 6) ≈ 40.3493 (not a mean of three per-channel PSNRs, which
        // would be infinite).
        let a = PixelBuffer(width: 2, height: 1, fill: RGBA(10, 20, 30))
        var b = a
        b[0, 0] = RGBA(16, 20, 30)
        #expect(try ImageComparison.meanSquaredError(a, b) == 6)
        #expect(abs(try ImageComparison.psnr(a, b) - 10 * log10(65025.0 / 6)) < 1e-12)
        #expect(abs(try ImageComparison.psnr(a, b) - 40.3493) < 1e-4)
        #expect(try ImageComparison.meanAbsoluteDifference(a, b) == 1)  // 6 / 6 samples
        #expect(try ImageComparison.maximumAbsoluteDifference(a, b) == 6)
    }

    @Test func aSingleChangedPixelInASevenBySevenGreyImage() throws {
        // The SSIM hand case: one of 49 grey pixels goes from 100 to 149 in R, G and B.
        // MSE = 3·49² / (3·49) = 49, PSNR = 10·log10(65025 / 49) ≈ 31.2288.
        let a = PixelBuffer(width: 7, height: 7, fill: RGBA(100, 100, 100))
        var b = a
        b[3, 3] = RGBA(149, 149, 149)
        #expect(try ImageComparison.meanSquaredError(a, b) == 49)
        #expect(abs(try ImageComparison.psnr(a, b) - 31.228842808393967) < 1e-12)
    }

    @Test(arguments: [
        // Reference values from scikit-image 0.26.0 (numpy 2.4.6), computed once with
        //   peak_signal_noise_ratio(a, b, data_range=255)
        // on the uint8 arrays (17, 23, 3) of `qualityReferencePair` (SSIMTests.swift).
        ("patterned vs slightly noisy", 0, 32.64602449648527),
        ("patterned vs scrambled", 1, 7.962172240770044),
        ("gradient vs noisy gradient", 2, 28.597809361936033),
    ])
    func matchesScikitImageOnPinnedImages(label: String, pair: Int, expected: Double) throws {
        let (a, b) = qualityReferencePair(pair)
        #expect(abs(try ImageComparison.psnr(a, b) - expected) < 1e-9, "\(label)")
    }

    @Test(arguments: [
        // (colour with alpha, opaque colour it must equal after compositing over white)
        // v' = (v·a + 255·(255 − a) + 127) / 255, integer division (round to nearest):
        (RGBA(0, 0, 0, 0), RGBA(255, 255, 255)),  // fully transparent → white
        (RGBA(12, 34, 56, 255), RGBA(12, 34, 56)),  // opaque → unchanged
        (RGBA(0, 0, 0, 128), RGBA(127, 127, 127)),  // 255·127/255 = 127
        (RGBA(200, 100, 0, 51), RGBA(244, 224, 204)),  // 200/5 + 204, 100/5 + 204, 204
        (RGBA(1, 100, 255, 128), RGBA(128, 177, 255)),  // 127.502 → 128, 177.196 → 177, 255
    ])
    func alphaIsCompositedOverWhiteBeforeComparing(translucent: RGBA, opaque: RGBA) throws {
        let a = PixelBuffer(width: 3, height: 2, fill: translucent)
        let b = PixelBuffer(width: 3, height: 2, fill: opaque)
        #expect(try ImageComparison.maximumAbsoluteDifference(a, b) == 0)
        #expect(try ImageComparison.psnr(a, b) == .infinity)
    }

    @Test func differentSizesThrow() {
        let a = PixelBuffer(width: 4, height: 4, fill: .white)
        let b = PixelBuffer(width: 5, height: 4, fill: .white)
        let expected = ComparisonError.sizeMismatch(
            first: .init(width: 4, height: 4), second: .init(width: 5, height: 4))
        #expect(throws: expected) { try ImageComparison.psnr(a, b) }
        #expect(throws: expected) { try ImageComparison.meanAbsoluteDifference(a, b) }
        #expect(throws: expected) { try ImageComparison.compare(a, b) }
    }

    @Test func anInfinitePSNRIsWrittenAsJSONNullAndReadBack() throws {
        let identical = ImageComparison.Result(ssim: 1, psnr: .infinity)
        let json = String(decoding: try JSONEncoder().encode(identical), as: UTF8.self)
        #expect(json.contains("\"psnr\":null"))
        let back = try JSONDecoder().decode(ImageComparison.Result.self, from: Data(json.utf8))
        #expect(back == identical)
        #expect(back.isIdentical)
    }

    @Test func aFinitePSNRRoundTripsThroughJSONAsANumber() throws {
        let result = ImageComparison.Result(ssim: 0.5, psnr: 31.25)
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        #expect(json.contains("\"psnr\":31.25"))
        #expect(try JSONDecoder().decode(ImageComparison.Result.self, from: Data(json.utf8)) == result)
        #expect(!result.isIdentical)
        #expect(result.description == "ssim 0.5000, psnr 31.25 dB")
    }
}
