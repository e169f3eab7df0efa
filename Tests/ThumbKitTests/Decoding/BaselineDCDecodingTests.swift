// SPDX-License-Identifier: Apache-2.0
import CThumbKit
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// The baseline fast path at DCT scale 1/8 (ImageDecoders+BaselineDC.swift): for every file,
/// either it declines (nil) or (a) every block's DC equals what libjpeg's
/// `jpeg_read_coefficients` reads and (b) its pixels are byte-identical to libjpeg's own 1/8
/// decode of the file; the route taken is checked too, so a silent fallback cannot pass.
struct BaselineDCDecodingTests {
    typealias Route = ImageDecoders.JPEG.ProgressiveRoute

    /// libjpeg's decode of the whole file at 1/8, as the normal path does it.
    static func wholeFile(_ data: [UInt8]) throws -> [UInt8] {
        let header = try ImageDecoders.JPEG.readHeader(data, path: "whole").header
        return try #require(
            ImageDecoders.JPEG.libjpegDecode(
                data, width: header.width, height: header.height, scaleNumerator: 1, blockSmoothing: true,
                failOnWarning: false))
    }

    /// Every block's DC as libjpeg reads it (component after component, image blocks only),
    /// and its warning count.
    static func libjpegDC(_ data: [UInt8]) -> (values: [Int16], warnings: Int)? {
        var err = CodecMessage.buffer()
        var warnings: Int32 = 0
        let count = data.withUnsafeBufferPointer {
            tk_jpeg_dc_coefficients($0.baseAddress, $0.count, nil, 0, &warnings, &err)
        }
        guard count >= 0 else { return nil }
        var values = [Int16](repeating: 0, count: count)
        _ = data.withUnsafeBufferPointer { src in
            values.withUnsafeMutableBufferPointer {
                tk_jpeg_dc_coefficients(src.baseAddress, src.count, $0.baseAddress, count, &warnings, &err)
            }
        }
        return (values, Int(warnings))
    }

    /// The fast path's DC values in `libjpegDC`'s order, with the coefficients the route keeps.
    static func fastDC(_ data: [UInt8]) -> [Int16]? {
        guard let layout = JPEGScanLayout(data) else { return nil }
        let frame = layout.frame
        let kept = frame.components.map {
            JPEGProgressiveCoefficients.keptPositions(
                idctSize: ImageDecoders.JPEG.idctSizeAtOneEighth($0, frame: frame))
        }
        guard let decoded = JPEGProgressiveCoefficients.decodeSequential(layout, kept: kept) else { return nil }
        var values: [Int16] = []
        for c in frame.components.indices {
            for y in 0..<frame.blocksHigh(c) {
                for x in 0..<frame.blocksWide(c) {
                    let block = y * frame.paddedBlocksWide(c) + x
                    values.append(decoded.coefficients[decoded.offsets[c] + block * kept[c].count])
                }
            }
        }
        return values
    }

    /// Holds `data` to the rule; the route taken, or nil when the fast path declined.
    @discardableResult
    static func check(_ data: [UInt8], _ label: String) throws -> Route? {
        let source = try ImageSource(data, path: "x.jpg")
        guard let fast = ImageDecoders.JPEG.decodeBaselineAtOneEighth(source) else { return nil }
        let reference = try #require(libjpegDC(data), "\(label)")
        #expect(reference.warnings == 0, "\(label): the fast path answered for a file libjpeg warns about")
        #expect(fastDC(data) == reference.values, "\(label): DC")
        #expect(firstMismatch(fast.pixels, try wholeFile(data)) == nil, "\(label): pixels")
        // Restart intervals on two threads (when the file has them) change nothing.
        #expect(ImageDecoders.JPEG.decodeBaselineAtOneEighth(source, threads: 2)?.pixels == fast.pixels, "\(label)")
        return fast.route
    }

    @Test(arguments: [
        ("ycc444-baseline-restart3-75x53.jpg", Route.direct),
        ("gray-baseline-q100-75x53.jpg", .direct),
        ("ycc422-baseline-75x53.jpg", .direct),
        ("ycc440-baseline-restart1row-75x53.jpg", .direct),
        ("ycc411-baseline-75x53.jpg", .direct),
        ("ycc420-baseline-restart2-75x53.jpg", .direct),
    ])
    func generatedFileMatchesLibjpeg(_ name: String, _ route: Route) throws {
        #expect(try Self.check(try TestImages.bytes(of: name), name) == route)
    }

    @Test(arguments: [EncodeOptions.Subsampling.yuv420, .yuv444])
    func encodedPhotoLikeImageMatchesLibjpeg(_ subsampling: EncodeOptions.Subsampling) throws {
        let image = GeneratedImages.pixels(width: 333, height: 171, seed: 9)
        let data = try ImageEncoders.encode(image, options: EncodeOptions(quality: 95, subsampling: subsampling))
        #expect(try Self.check(data, "\(subsampling)") == .direct)
    }

    @Test(.needsCorpus, .tags(.corpus))
    func everyBaselineCorpusFileMatchesLibjpegOrFallsBack() throws {
        guard TestCorpus.requireCorpus() else { return }
        var answered = 0
        var declined: [String] = []
        for row in TestCorpus.rows(where: { $0.format == "jpeg" && $0.expected == .decode }) {
            let data = try TestCorpus.bytes(of: row.path)
            guard let route = try Self.check(data, row.path) else {
                declined.append(row.path)
                continue
            }
            answered += 1
            #expect(!row.isWarning, "\(row.path): libjpeg warns about this file")
            _ = route
        }
        print("baseline fast path: \(answered) corpus JPEGs taken, \(declined.count) declined: \(declined)")
        #expect(answered >= 20, "declined: \(declined)")
        #expect(declined.contains("corrupt/jpeg-decoder/mjpeg.jpg"))
    }

    @Test func benchCorpusMatchesLibjpegOrFallsBack() throws {
        let folder = URL(fileURLWithPath: "/root/bench-corpus/jpeg")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names.sorted() where name.hasSuffix(".jpg") {
            let data = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            let sequential = try !ImageDecoders.JPEG.readHeader(data, path: name).header.isProgressive
            // Every sequential photo there is well-formed: the fast path must take it.
            #expect((try Self.check(data, name) != nil) == sequential, "\(name)")
        }
    }

    @Test(arguments: ["ycc444-baseline-restart3-75x53.jpg", "ycc420-baseline-restart2-75x53.jpg"])
    func decoderAgreesWithLibjpegAtOneEighthThroughTheDirectRoute(_ name: String) throws {
        let data = try TestImages.bytes(of: name)
        let image = try ImageDecoders.decode(data, path: "b.jpg", minimumScale: 0.1)
        #expect(image.scaleNumerator == 1)
        #expect(firstMismatch(image.buffer.pixels, try Self.wholeFile(data)) == nil)
        #expect(image.warnings.isEmpty)
        let direct = ImageDecoders.JPEG.decodeBaselineAtOneEighth(
            try ImageSource(data, path: "x.jpg"), directOnly: true)
        #expect(direct?.route == .direct)
    }

    @Test func truncatedFileFallsBackAndWarnsAsBefore() throws {
        let data = try TestImages.bytes(of: "ycc444-baseline-restart3-75x53.jpg")
        let cut = Array(data.prefix(data.count * 7 / 10))
        #expect(ImageDecoders.JPEG.decodeBaselineAtOneEighth(try ImageSource(cut, path: "x.jpg")) == nil)
        let image = try ImageDecoders.decode(cut, path: "cut.jpg", minimumScale: 0.1)
        #expect(image.warnings.first?.lowercased().contains("premature end") == true)
    }

    @Test func progressiveFilesAreLeftToTheirOwnPath() throws {
        let data = try TestImages.bytes(of: "ycc444-progressive-restart3-75x53.jpg")
        #expect(ImageDecoders.JPEG.decodeBaselineAtOneEighth(try ImageSource(data, path: "x.jpg")) == nil)
    }

    @Test(arguments: ["ycc444-baseline-restart3-75x53.jpg", "ycc420-baseline-restart2-75x53.jpg"])
    func corruptDataEitherFallsBackOrStillMatchesLibjpeg(_ name: String) throws {
        // Flip bits all over the entropy-coded data (restart markers included). Wherever the
        // fast path still answers, libjpeg must read the damaged file the same way, without a warning.
        let data = try TestImages.bytes(of: name)
        var answered = 0
        var fellBack = 0
        for (index, damaged) in try EntropyDamage.bitFlips(of: data, count: 300, seed: 11) {
            if try Self.check(damaged, "\(name) byte \(index)") == nil {
                fellBack += 1
                _ = try? ImageDecoders.decode(damaged, path: "damaged.jpg", minimumScale: 0.1)
            } else {
                answered += 1
            }
        }
        #expect(answered > 0 && fellBack > 0)
    }

    @Test func huffmanTableWithMoreCodesThanItsLengthsHoldIsRefusedWithoutACrash() {
        // Five 1-bit codes: libjpeg refuses the table ("Bogus Huffman table definition"); the
        // lookahead fill once ran past its 512 entries here (a fuzzing finding).
        var counts = [UInt8](repeating: 0, count: 16)
        counts[0] = 5
        let symbols: [UInt8] = [0, 1, 2, 3, 4]
        #expect(JPEGHuffmanTable(counts: counts[...], symbols: symbols[...], isDC: false) == nil)
        counts[0] = 1
        counts[1] = 1
        #expect(JPEGHuffmanTable(counts: counts[...], symbols: symbols[0..<2], isDC: false) != nil)
    }

    @Test func headerWarningMakesTheFastPathDeclineAndTheWarningStays() throws {
        // JFIF revision 0.00: libjpeg warns while reading the header (a fuzzing finding: the
        // fast path answered and the warning was lost).
        var data = try TestImages.bytes(of: "ycc444-baseline-restart3-75x53.jpg")
        #expect(Array(data[6..<11]) == Array("JFIF\0".utf8))
        data[11] = 0
        data[12] = 0
        #expect(ImageDecoders.JPEG.decodeBaselineAtOneEighth(try ImageSource(data, path: "x.jpg")) == nil)
        let image = try ImageDecoders.decode(data, path: "v0.jpg", minimumScale: 0.1)
        #expect(image.warnings.first?.contains("JFIF revision") == true)
    }

    @Test func aRestartMarkerAfterTheLastMCUMakesTheFastPathDeclineAndLibjpegWarnsAsBefore() throws {
        // More entropy data after the scan's last MCU, behind a restart marker: libjpeg skips
        // it with a warning as it reads on to EOI. The fast path stopped at the marker and
        // answered (a fuzzing finding: the 1/8 pixels then differed from a strict decode's).
        var data = try TestImages.bytes(of: "ycc444-baseline-restart3-75x53.jpg")
        #expect(Array(data.suffix(2)) == [0xFF, 0xD9])
        data.insert(contentsOf: [0xFF, 0xD5, 0x12, 0x34, 0x56], at: data.count - 2)
        #expect(ImageDecoders.JPEG.decodeBaselineAtOneEighth(try ImageSource(data, path: "x.jpg")) == nil)
        #expect(try Self.check(data, "trailing restart marker") == nil)
        let image = try ImageDecoders.decode(data, path: "trailing.jpg", minimumScale: 0.1)
        #expect(image.warnings.first?.contains("extraneous bytes before marker 0xd9") == true)
        // The same file without the junk still takes the fast path.
        data.removeSubrange((data.count - 7)..<(data.count - 2))
        #expect(try Self.check(data, "clean") != nil)
    }

    @Test func passedDeadlineGivesNil() throws {
        let data = try TestImages.bytes(of: "ycc420-baseline-restart2-75x53.jpg")
        let source = try ImageSource(data, path: "x.jpg")
        #expect(ImageDecoders.JPEG.decodeBaselineAtOneEighth(source, deadline: ProgressiveDeadlineTests.passed) == nil)
    }
}
