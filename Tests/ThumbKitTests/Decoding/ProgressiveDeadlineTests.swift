// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// The progressive fast paths stop at the deadline inside their scan loops and keep their
/// coefficient buffers within the limits (issue 12, item 12). The file is
/// `TestImages/gray-progressive-883-scans-4096x3072.jpg` (scripts/make-many-scan-jpeg): constant
/// grey with 882 one-coefficient AC scans, each of which walks all 196,608 blocks.
struct ProgressiveDeadlineTests {
    static let name = "gray-progressive-883-scans-4096x3072.jpg"

    /// A deadline that passed long ago.
    static let passed = Deadline(nanoseconds: 1, seconds: 1)

    @Test func theFileIsWellFormedAndConstantGrey() throws {
        let data = try TestImages.bytes(of: Self.name)
        #expect(data.count < 64 * 1024)  // fits the fuzz target's input limit
        let header = try ImageDecoders.readHeader(data, path: Self.name)
        #expect(header.width == 4096 && header.height == 3072 && header.isProgressive)
        let layout = try #require(JPEGScanLayout(data))
        #expect(layout.parts.filter { if case .scan = $0 { true } else { false } }.count == 883)
        // The DC route reads only the DC scan; libjpeg, which would read all 883, gives up after
        // 16 passes over the blocks (JPEGScanWorkTests).
        let fast = try #require(ImageDecoders.JPEG.decodeProgressiveAtOneEighth(try ImageSource(data, path: "x.jpg")))
        #expect(fast.pixels.count == 512 * 384 * 4 && fast.pixels.allSatisfy { $0 == 128 || $0 == 255 })
        let libjpeg = ImageDecoders.JPEG.libjpegDecode(
            data, width: 4096, height: 3072, scaleNumerator: 1, blockSmoothing: false, failOnWarning: true)
        #expect(libjpeg == nil)
    }

    @Test func theCoefficientDecoderStopsAtAPassedDeadline() throws {
        let layout = try #require(JPEGScanLayout(try TestImages.bytes(of: Self.name)))
        #expect(JPEGProgressiveCoefficients.decode(layout) != nil)
        #expect(JPEGProgressiveCoefficients.decode(layout, deadline: Self.passed) == nil)
        let kept = [JPEGProgressiveCoefficients.keptPositions(idctSize: 2)]
        #expect(JPEGProgressiveCoefficients.decode(layout, kept: kept, deadline: Self.passed) == nil)
    }

    @Test func bothFastRoutesStopAtAPassedDeadline() throws {
        let data = try TestImages.bytes(of: Self.name)
        #expect(
            ImageDecoders.JPEG.decodeProgressiveAtOneEighth(try ImageSource(data, path: "x.jpg"), deadline: Self.passed)
                == nil)
        for numerator in [2, 3] {
            #expect(
                ImageDecoders.JPEG.decodeProgressiveFast(
                    try ImageSource(data, path: "x.jpg"), scaleNumerator: numerator, deadline: Self.passed) == nil)
        }
    }

    @Test func eachScanLoopStopsAtAPassedDeadline() throws {
        let layout = try #require(JPEGScanLayout(try TestImages.bytes(of: Self.name)))
        let frame = layout.frame
        guard case .scan(let dc) = layout.parts.first(where: { if case .scan = $0 { true } else { false } }) else {
            Issue.record("no scan")
            return
        }
        var coefficients = [Int16](repeating: 0, count: frame.paddedBlocksWide(0) * frame.paddedBlocksHigh(0))
        let geometry = JPEGProgressiveCoefficients.ScanGeometry(
            components: [0], frame: frame, offsets: [0], blockSizes: [1])
        var tables = JPEGTableState()
        for case .segment(let marker, let range) in layout.parts {
            _ = tables.apply(marker: marker, payload: layout.bytes[(range.lowerBound + 4)..<range.upperBound])
        }
        let dcTable = try #require(tables.dc[dc.dcTables[0]])
        let decode = { (deadline: Deadline) in
            JPEGProgressiveCoefficients.decodeScan(
                dc, geometry: geometry, bytes: layout.bytes, tables: [dcTable], restartInterval: 0,
                into: &coefficients, deadline: deadline)
        }
        #expect(decode(.never))
        #expect(!decode(Self.passed))
    }

    @Test(arguments: [1, 2, 3])
    func aDecodeWithATimeLimitFailsOnTime(numerator: Int) throws {
        let data = try TestImages.bytes(of: Self.name)
        let options = DecodeOptions(limits: ImageLimits(maxSeconds: 1))
        #expect(throws: DecodeError.overLimit(path: "x.jpg", reason: "took longer than the time limit of 1 s")) {
            _ = try ImageDecoders.JPEG.decode(
                ImageSource(data, path: "x.jpg"), options: options, scaleNumerator: numerator, deadline: Self.passed)
        }
        #expect(throws: DecodeError.overLimit(path: "x.jpg", reason: "took longer than the time limit of 1 s")) {
            _ = try ImageDecoders.JPEG.decodeRows(
                ImageSource(data, path: "x.jpg"), options: options, scaleNumerator: numerator, deadline: Self.passed,
                consume: { _ in })
        }
    }

    @Test func coefficientBuffersAreBoundedBeforeTheyAreAllocated() throws {
        let data = try TestImages.bytes(of: Self.name)
        let layout = try #require(JPEGScanLayout(data))
        // DC only: 2 bytes a block, 196,608 blocks.
        #expect(JPEGProgressiveCoefficients.decode(layout, maxBytes: 2 * 196_608) != nil)
        #expect(JPEGProgressiveCoefficients.decode(layout, maxBytes: 2 * 196_608 - 1) == nil)
        // The header-time check: libjpeg's 24 MiB buffer at 8/8 is over the 16 MiB floor.
        let small = ImageLimits(maxPixels: 1)
        #expect(small.coefficientBudgetBytes == 16 << 20)
        #expect(throws: DecodeError.self) {
            try ImageDecoders.JPEG.checkCoefficientMemory(try ImageSource(data, path: "x.jpg"), 8, small)
        }
        try ImageDecoders.JPEG.checkCoefficientMemory(try ImageSource(data, path: "x.jpg"), 8, ImageLimits())
        #expect(ImageLimits().coefficientBudgetBytes == ImageLimits.defaultMaxPixels * 8)
    }
}

/// The one rule for fatal warnings (issue 12, item 22): `--fail-on warning` and `watch`.
struct WarningPolicyTests {
    @Test(arguments: [
        ("iCCP: known incorrect sRGB profile", false), ("iCCP: CRC error", false),
        ("cHRM: invalid chromaticities", false),
        ("gAMA: out of place", false), ("IDAT: Extra compressed data", true), ("bKGD: out of place", true),
        ("premature end of data segment", true),
    ])
    func onlyWarningsAboutImageDataAreFatal(warning: String, fatal: Bool) {
        #expect(DecodeOptions(failOnWarning: true).failsOn(warning: warning) == fatal)
        #expect(!DecodeOptions(failOnWarning: false).failsOn(warning: warning))
    }
}
