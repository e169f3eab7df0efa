// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKit

/// The 2×2 IDCT of 4:2:0 chroma at 1/8 (`ReducedIDCT2x2`, through `JPEGScaledPixels`) against
/// libjpeg's own: random coefficients, from a photo's to the most extreme an 8-bit file can
/// carry, are written as a sequential 4:2:0 JPEG (`JPEGTranscoder`) and decoded by libjpeg at
/// 1/8. Every image must either give libjpeg's bytes or be declined, and both must happen.
struct ReducedIDCT2x2Tests {
    /// SplitMix64, so a failure names a reproducible case.
    struct Numbers {
        var state: UInt64
        mutating func next(_ range: ClosedRange<Int>) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return range.lowerBound + Int(z % UInt64(range.count))
        }
    }

    /// One 32×16 image (two MCUs) of 4:2:0 whose coefficients and quantisers come from `seed`.
    /// Each chroma block is photo-like (mostly zeros, small values), dense (a quarter zeros,
    /// values that drive outputs into the range limit) or, with `extremeShare` percent
    /// likelihood, extreme (any 8-bit file's magnitude, with quantisers up to `quantMax`).
    static func image(seed: UInt64, extremeShare: Int, quantMax: Int) -> (
        JPEGProgressiveCoefficients, JPEGScanLayout.Frame
    ) {
        var numbers = Numbers(state: seed)
        let components = [
            JPEGScanLayout.Component(id: 1, h: 2, v: 2, quantTable: 0),
            JPEGScanLayout.Component(id: 2, h: 1, v: 1, quantTable: 1),
            JPEGScanLayout.Component(id: 3, h: 1, v: 1, quantTable: 1),
        ]
        let frame = JPEGScanLayout.Frame(marker: 0xC0, precision: 8, width: 32, height: 16, components: components)
        let chromaKept = JPEGProgressiveCoefficients.keptPositions(idctSize: 2)
        let kept = [[0], chromaKept, chromaKept]
        let quant = (0..<2).map { _ in (0..<64).map { _ in UInt16(numbers.next(1...quantMax)) } }
        let lumaBlocks = frame.paddedBlocksWide(0) * frame.paddedBlocksHigh(0)
        let chromaBlocks = frame.paddedBlocksWide(1) * frame.paddedBlocksHigh(1)
        var coefficients = (0..<lumaBlocks).map { _ in Int16(numbers.next(-100...100)) }
        for _ in 0..<(2 * chromaBlocks) {
            let extreme = numbers.next(1...100) <= extremeShare
            let dense = !extreme && numbers.next(0...1) == 0
            let (zeros, scale) = extreme ? (2, 1023) : dense ? (1, 40) : (5, 4)
            coefficients.append(Int16(extreme ? numbers.next(-1023...1023) : numbers.next(-60...60)))
            for _ in 1..<chromaKept.count {
                let zero = numbers.next(0...(zeros * 4 / 3)) != 0 && numbers.next(0...zeros) != 0
                coefficients.append(zero ? 0 : Int16(numbers.next(-scale...scale)))
            }
        }
        let offsets = [0, lumaBlocks, lumaBlocks + chromaBlocks * chromaKept.count]
        return (
            JPEGProgressiveCoefficients(
                kept: kept, coefficients: coefficients, offsets: offsets, quantTables: [quant[0], quant[1], quant[1]]),
            frame
        )
    }

    @Test(arguments: [(0, 16), (10, 64), (40, 255)])
    func pixelsAreLibjpegsOrDeclined(extremeShare: Int, quantMax: Int) throws {
        var same = 0
        var declined = 0
        var clamped = 0
        for seed in UInt64(1)...400 {
            let (coefficients, frame) = Self.image(
                seed: seed &* 7919 &+ UInt64(extremeShare), extremeShare: extremeShare, quantMax: quantMax)
            let stream = try #require(JPEGTranscoder.transcode(coefficients, frame: frame, markers: []))
            let libjpeg = try #require(
                ImageDecoders.JPEG.libjpegDecode(
                    stream, width: frame.width, height: frame.height, scaleNumerator: 1, blockSmoothing: false,
                    failOnWarning: true))
            guard let ours = JPEGScaledPixels.rgba(coefficients, frame: frame, colorSpace: JPEGScaledPixels.ycbcr)
            else {
                declined += 1
                continue
            }
            #expect(ours == libjpeg, "seed \(seed), extreme share \(extremeShare), quantisers up to \(quantMax)")
            same += 1
            if ours.contains(0) || ours.contains(255) { clamped += 1 }
        }
        if extremeShare == 0 {
            // Without extreme blocks nothing leaves the range where libjpeg's versions agree,
            // though the range limit is reached.
            #expect(declined == 0 && clamped > 0, "declined \(declined), clamped \(clamped)")
        } else {
            #expect(same > 0 && declined > 0, "same \(same), declined \(declined)")
            print("2×2 IDCT, extreme share \(extremeShare) %: \(same) same as libjpeg, \(declined) declined")
        }
    }
}
