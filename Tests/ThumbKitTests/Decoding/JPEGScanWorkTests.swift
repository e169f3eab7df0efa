// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// A corrupt progressive JPEG must not cost seconds (issue 32, item 1). The fuzzer's find was a
/// 51 KB 3072×4096 progressive file whose corrupt data made the DC route give up, after which
/// libjpeg read all of its hundreds of scans: 5 s at any scale, against 0.05 s for a valid file
/// of that size. Here the same shape is made from `gray-progressive-883-scans-4096x3072.jpg`
/// (882 AC scans, each visiting all 196,608 blocks) with its DC and AC data corrupted, and the
/// bounds are checked by counting the blocks libjpeg visits (`JPEGBlockVisits`), not by a
/// clock: 16 passes in all (TK_JPEG_MAX_SCAN_PASSES), and 6 after the entropy data proved
/// corrupt (TK_JPEG_MAX_PASSES_AFTER_CORRUPTION).
struct JPEGScanWorkTests {
    static let name = "gray-progressive-883-scans-4096x3072.jpg"
    static let blocks = 512 * 384

    /// The 883-scan file with garbage (no 0xFF, so no new markers) written into the entropy
    /// data of its DC scan and of every tenth AC scan.
    static func corrupted() throws -> [UInt8] {
        var bytes = try TestImages.bytes(of: name)
        let layout = try #require(JPEGScanLayout(bytes))
        var index = 0
        for case .scan(let scan) in layout.parts {
            defer { index += 1 }
            guard index % 10 == 0, scan.data.count >= 4 else { continue }
            let middle = scan.data.lowerBound + scan.data.count / 2
            for i in middle..<min(middle + 16, scan.data.upperBound - 1) where bytes[i - 1] != 0xFF {
                bytes[i] = UInt8(truncatingIfNeeded: 0x35 &* (i + 7)) & 0x7F
            }
        }
        return bytes
    }

    /// A valid 4096×3072 progressive grey JPEG from libjpeg's standard script, for comparison.
    static func valid() throws -> [UInt8] {
        var image = PixelBuffer(width: 4096, height: 3072, fill: RGBA(128, 128, 128))
        for y in stride(from: 0, to: 3072, by: 97) { for x in 0..<4096 { image[x, y] = RGBA(200, 200, 200) } }
        return try ImageEncoders.encode(image, options: EncodeOptions(format: .jpeg, progressive: true))
    }

    /// libjpeg's decode at 1/8 (no fast path: `failOnWarning` turns it off), with its block visits.
    static func libjpegWork(_ data: [UInt8]) -> (visits: Int, result: Result<DecodedImage, DecodeError>) {
        var result: Result<DecodedImage, DecodeError>!
        let visits = JPEGBlockVisits.counted {
            result = Result { () throws(DecodeError) in
                try ImageDecoders.JPEG.decode(
                    ImageSource(data, path: "x.jpg"), options: DecodeOptions(failOnWarning: true), scaleNumerator: 1)
            }
        }
        return (visits, result)
    }

    @Test func aValidProgressiveFileTakesAFewPasses() throws {
        let valid = try Self.valid()
        let (visits, result) = Self.libjpegWork(valid)
        _ = try result.get()
        // 4:2:0 colour: 294,912 blocks; libjpeg's standard script visits luma 6 times, chroma 4.
        let layout = try #require(JPEGScanLayout(valid))
        #expect(layout.frame.blockCount == Self.blocks * 3 / 2)
        let passes = Double(visits) / Double(layout.frame.blockCount)
        #expect(abs(passes - layout.blockPasses(walking: { _ in true })) < 0.05, "\(passes) passes")
        #expect(passes > 5 && passes < 5.5)
    }

    @Test func theManyScanFileIsRefusedAfterTheBudget() throws {
        let data = try TestImages.bytes(of: Self.name)
        let (visits, result) = Self.libjpegWork(data)
        #expect(throws: DecodeError.self) { try result.get() }
        if case .failure(let error) = result {
            #expect("\(error)".contains("needs more than 16 passes over its blocks"))
        }
        // The check runs before each iMCU row, so it stops within one row (8 blocks of 512).
        #expect(visits > 16 * Self.blocks && visits <= 16 * Self.blocks + 512)
        // The DC route still serves the valid file at 1/8: its one DC scan is a single pass.
        let fast = try #require(ImageDecoders.JPEG.decodeProgressiveAtOneEighth(try ImageSource(data, path: "x.jpg")))
        #expect(fast.route == .direct)
    }

    @Test func aCorruptManyScanFileCostsAtMostAboutTwiceAValidOne() throws {
        let hostile = try Self.corrupted()
        #expect(hostile.count < 64 * 1024)
        // The DC route refuses the corrupt DC scan, so every decode falls back to libjpeg.
        #expect(ImageDecoders.JPEG.decodeProgressiveAtOneEighth(try ImageSource(hostile, path: "x.jpg")) == nil)
        var failure: (any Error)?
        let visits = JPEGBlockVisits.counted {
            do {
                _ = try ImageDecoders.JPEG.decode(
                    ImageSource(hostile, path: "x.jpg"), options: DecodeOptions(), scaleNumerator: 1)
            } catch {
                failure = error
            }
        }
        // libjpeg warns "bad Huffman code" in the DC scan; 6 passes of scans later it gives up.
        #expect(
            failure.map { "\($0)".contains("bad Huffman code, and more than 6 passes of scans after it") } == true,
            "\(String(describing: failure))")
        #expect(visits > 6 * Self.blocks && visits <= 7 * Self.blocks + 512)
        // Against a valid progressive file of the same size read by libjpeg (5.33 passes):
        // under 1.5 times its work, where it was 166 times (883 passes) before.
        let valid = Self.libjpegWork(try Self.valid()).visits
        #expect(Double(visits) < 1.5 * Double(valid), "hostile \(visits) block visits, valid \(valid)")
        // The reduced route (2/8, 3/8) would walk all 883 scans; it refuses before starting.
        let layout = try #require(JPEGScanLayout(try TestImages.bytes(of: Self.name)))
        #expect(layout.blockPasses(walking: { _ in true }) == 883)
        let kept = [JPEGProgressiveCoefficients.keptPositions(idctSize: 2)]
        #expect(JPEGProgressiveCoefficients.decode(layout, kept: kept) == nil)
        #expect(JPEGProgressiveCoefficients.decode(layout) != nil)  // DC only: one pass
    }
}
