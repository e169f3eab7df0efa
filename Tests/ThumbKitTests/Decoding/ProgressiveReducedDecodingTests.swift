// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// Progressive files at DCT scales 2/8 and 3/8 decoded from only the coefficients the reduced
/// IDCTs read (`decodeProgressiveReduced`): decoded both ways, the reduced path and libjpeg's
/// whole-file decode (block smoothing on, as the normal path uses it), the pixels must be
/// byte-identical.
struct ProgressiveReducedDecodingTests {
    static func wholeFile(_ data: [UInt8], numerator: Int) throws -> [UInt8] {
        let header = try ImageDecoders.JPEG.readHeader(data, path: "whole").header
        return try #require(
            ImageDecoders.JPEG.libjpegDecode(
                data, width: header.width, height: header.height, scaleNumerator: numerator, blockSmoothing: true,
                failOnWarning: false))
    }

    @Test(arguments: [
        "ycc444-progressive-restart3-75x53.jpg", "ycc444-progressive-split-dc-q100-75x53.jpg",
        "ycc422-progressive-75x53.jpg", "ycc440-progressive-restart1row-75x53.jpg", "ycc411-progressive-75x53.jpg",
        "ycc420-progressive-75x53.jpg", "gray-progressive-q100-75x53.jpg",
    ])
    func generatedFileDecodesToTheSameBytesAsTheWholeFile(_ name: String) throws {
        let data = try TestImages.bytes(of: name)
        for numerator in 2...3 {
            let reduced = try #require(
                ImageDecoders.JPEG.decodeProgressiveReduced(
                    try ImageSource(data, path: "x.jpg"), scaleNumerator: numerator))
            #expect(reduced == (try Self.wholeFile(data, numerator: numerator)), "\(numerator)/8")
        }
    }

    @Test(
        .needsCorpus, .tags(.corpus),
        arguments: [
            "jpeg/libjpeg-turbo/testimgp.jpg", "jpeg/jpeg-decoder/non-interleaved-mcu.jpg",
            "jpeg/pillow/icc_profile_big.jpg",
            "photos/lomiri16_aitzgorri_by_Aitzol_Berasategi.jpg",
        ])
    func corpusFileDecodesToTheSameBytesAsTheWholeFile(_ path: String) throws {
        guard TestCorpus.requireCorpus() else { return }
        let data = try TestCorpus.bytes(of: path)
        for numerator in 2...3 {
            let reduced = try #require(
                ImageDecoders.JPEG.decodeProgressiveReduced(
                    try ImageSource(data, path: "x.jpg"), scaleNumerator: numerator))
            #expect(reduced == (try Self.wholeFile(data, numerator: numerator)), "\(numerator)/8")
        }
    }

    @Test(.needsCorpus, .tags(.corpus)) func incompleteFileIsLeftToLibjpeg() throws {
        // No AC scan at all: libjpeg's block smoothing would invent AC values, so no reduced path.
        guard TestCorpus.requireCorpus() else { return }
        let data = try TestCorpus.bytes(of: "jpeg/jpeg-decoder/progressive-missing-ac.jpg")
        #expect(
            ImageDecoders.JPEG.decodeProgressiveReduced(try ImageSource(data, path: "x.jpg"), scaleNumerator: 2) == nil)
        #expect(
            ImageDecoders.JPEG.decodeProgressiveReduced(try ImageSource(data, path: "x.jpg"), scaleNumerator: 3) == nil)
    }

    @Test func corruptACDataEitherFallsBackOrStillMatchesTheWholeFile() throws {
        let data = try TestImages.bytes(of: "ycc420-progressive-75x53.jpg")
        let layout = try #require(JPEGScanLayout(data))
        let acRanges = layout.parts.compactMap { part -> Range<Int>? in
            if case .scan(let scan) = part, scan.ss > 0, !scan.data.isEmpty { return scan.data }
            return nil
        }
        #expect(acRanges.count >= 6)
        var state: UInt32 = 8
        var answered = 0
        var fellBack = 0
        for _ in 0..<200 {
            state = state &* 1_664_525 &+ 1_013_904_223
            let range = acRanges[Int(state >> 8) % acRanges.count]
            state = state &* 1_664_525 &+ 1_013_904_223
            let index = range.lowerBound + Int(state >> 8) % range.count
            var damaged = data
            damaged[index] ^= UInt8(1 << (state % 8))
            guard
                let reduced = ImageDecoders.JPEG.decodeProgressiveReduced(
                    try ImageSource(damaged, path: "x.jpg"), scaleNumerator: 3)
            else {
                fellBack += 1
                continue
            }
            answered += 1
            #expect(reduced == (try Self.wholeFile(damaged, numerator: 3)), "byte \(index)")
        }
        #expect(answered > 0 && fellBack > 0)
    }

    @Test(arguments: [(1, 1), (2, 25), (3, 9), (4, 49), (5, 25), (6, 36), (7, 49), (8, 64)])
    func reducedIDCTsReadTheirCoefficients(_ size: Int, _ count: Int) {
        let kept = JPEGProgressiveCoefficients.keptPositions(idctSize: size)
        #expect(kept.count == count)
        #expect(kept.first == 0 && kept == kept.sorted())
    }

    @Test func zigzagOrderIsLibjpegs() {
        let order = JPEGProgressiveCoefficients.naturalOrder
        #expect(order.count == 64 && Set(order).count == 64)
        #expect(Array(order.prefix(10)) == [0, 1, 8, 16, 9, 2, 3, 10, 17, 24])
        #expect(Array(order.suffix(4)) == [47, 55, 62, 63])
    }

    @Test(.needsCorpus, .tags(.corpus)) func smallFilesStayWithLibjpegAndBigOnesAreDecodedReduced() throws {
        // The reduced path only pays off in memory: below 16 MiB of libjpeg buffer it is not used.
        let small = try TestImages.bytes(of: "ycc444-progressive-restart3-75x53.jpg")
        #expect(
            ImageDecoders.JPEG.decodeProgressiveFast(try ImageSource(small, path: "x.jpg"), scaleNumerator: 3) == nil)
        let frame = try #require(ImageDecoders.JPEG.progressiveFrame(try ImageSource(small, path: "x.jpg")))
        #expect(
            ImageDecoders.JPEG.coefficientBufferBytes(try ImageSource(small, path: "x.jpg"), scaleNumerator: 3)
                == ImageDecoders.JPEG.libjpegCoefficientBytes(frame))
        #expect(
            ImageDecoders.JPEG.coefficientBufferBytes(try ImageSource(small, path: "x.jpg"), scaleNumerator: 1) == 0)
        guard TestCorpus.requireCorpus() else { return }
        let big = try TestCorpus.bytes(of: "photos/lomiri16_aitzgorri_by_Aitzol_Berasategi.jpg")
        let bigFrame = try #require(ImageDecoders.JPEG.progressiveFrame(try ImageSource(big, path: "x.jpg")))
        #expect(ImageDecoders.JPEG.libjpegCoefficientBytes(bigFrame) >= ImageDecoders.JPEG.reducedMinimumBufferBytes)
        #expect(
            ImageDecoders.JPEG.coefficientBufferBytes(try ImageSource(big, path: "x.jpg"), scaleNumerator: 3) * 4
                < ImageDecoders.JPEG.libjpegCoefficientBytes(bigFrame))
        #expect(
            ImageDecoders.JPEG.decodeProgressiveFast(try ImageSource(big, path: "x.jpg"), scaleNumerator: 3)
                == (try Self.wholeFile(big, numerator: 3)))
    }
}
