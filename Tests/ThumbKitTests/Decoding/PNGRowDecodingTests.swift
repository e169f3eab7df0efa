// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// The two sinks of the one PNG reader (png_rows.c): rows handed on one by one and converted
/// row by row (the thumbnail path), and the whole image kept and converted at once (`decode`).
/// They give the same bytes for every decodable file and the same failure for every other one.
struct PNGRowDecodingTests {
    /// Every PNG of the corpus but the interlaced ones (which only `decode` reads: see
    /// `interlacedTwins`) and the 225000² bomb.
    static let pngRows = TestCorpus.rows {
        $0.format == "png" && !$0.path.hasPrefix("corrupt/big-png/") && !isInterlaced($0)
    }

    /// Whether the file's header says interlaced (false when it cannot be read: such files are
    /// rows of `pngRows`, where both paths must fail alike).
    static func isInterlaced(_ row: TestCorpus.Row) -> Bool {
        guard let data = try? TestCorpus.bytes(of: row.path) else { return false }
        return (try? ImageDecoders.readHeader(data, path: row.path))?.isProgressive ?? false
    }

    /// All rows of a non-interlaced file, concatenated.
    static func rows(_ data: [UInt8], path: String, options: DecodeOptions = DecodeOptions()) throws(DecodeError)
        -> (pixels: [UInt8], decoded: ImageDecoders.StreamedDecode)
    {
        var pixels: [UInt8] = []
        let decoded = try ImageDecoders.PNG.decodeRows(ImageSource(data, path: path), options: options) {
            pixels += $0
        }
        return (pixels, decoded)
    }

    @Test(.needsCorpus, .tags(.corpus), arguments: pngRows)
    func rowsAreTheWholeDecodesBytesAndFailuresAreItsFailures(_ row: TestCorpus.Row) throws {
        let data = try TestCorpus.bytes(of: row.path)
        // Both paths read the header first: a header that does not read fails both alike.
        let header: ImageHeader
        do {
            header = try ImageDecoders.readHeader(data, path: row.path)
        } catch {
            #expect(throws: error) { try ImageDecoders.decode(data, path: row.path) }
            #expect(throws: error) { try Self.rows(data, path: row.path) }
            return
        }
        try #require(!header.isProgressive, "interlaced files are not rows of this table")
        for options in [DecodeOptions(), DecodeOptions(failOnWarning: true)] {
            let whole = Result { () throws(DecodeError) in
                try ImageDecoders.decode(data, path: row.path, options: options)
            }
            let streamed = Result { () throws(DecodeError) in try Self.rows(data, path: row.path, options: options) }
            switch (whole, streamed) {
            case (.success(let image), .success(let rows)):
                #expect(firstMismatch(rows.pixels, image.buffer.pixels) == nil)
                #expect(rows.decoded.warnings == image.warnings)
                #expect(rows.decoded.color.warnings == image.colorWarnings)
                #expect(rows.decoded.color.profile == image.colorProfile)
            case (.failure(let a), .failure(let b)):
                #expect(a == b)
            default:
                Issue.record("whole decode \(whole) but rows \(streamed)")
            }
        }
    }

    @Test(.needsCorpus, .tags(.corpus)) func decodableNonInterlacedFilesAreCovered() {
        guard TestCorpus.requireCorpus() else { return }
        // PngSuite alone has about a hundred: make sure the identity test above is not vacuous.
        let covered = Self.pngRows.filter { $0.expected == .decode }
        #expect(covered.count > 80)
    }

    /// PngSuite's `basi*` files are its `basn*` files interlaced: the same picture. libpng's
    /// simplified API, which ThumbKit used before, decoded the 16-bit ones differently (up to
    /// 255 levels apart in 20–40 % of the bytes); its low-level reader does not.
    static let interlacedTwins = TestCorpus.rows {
        $0.path.hasPrefix("pngsuite/basi") && $0.expected == .decode
    }

    @Test(.needsCorpus, .tags(.corpus), arguments: interlacedTwins)
    func anInterlacedFileDecodesExactlyLikeItsPlainTwin(_ row: TestCorpus.Row) throws {
        let interlaced = try TestCorpus.bytes(of: row.path)
        let plain = try TestCorpus.bytes(of: row.path.replacingOccurrences(of: "pngsuite/basi", with: "pngsuite/basn"))
        #expect(try ImageDecoders.readHeader(interlaced, path: row.path).isProgressive)
        let a = try ImageDecoders.decode(interlaced, path: row.path)
        let b = try ImageDecoders.decode(plain, path: "plain")
        #expect(a.buffer.width == b.buffer.width && a.buffer.height == b.buffer.height)
        #expect(firstMismatch(a.buffer.pixels, b.buffer.pixels) == nil)
    }

    @Test(.needsCorpus, .tags(.corpus)) func everyBitDepthHasAnInterlacedTwin() {
        guard TestCorpus.requireCorpus() else { return }
        #expect(Self.interlacedTwins.count >= 12)
        #expect(Self.interlacedTwins.contains { $0.path.hasSuffix("16.png") })
    }

    @Test func truncatedFileFailsLikeTheWholeDecode() throws {
        let data = try TestImages.bytes(of: "rgb8-gradient-8x8-truncated-in-idat.png")
        let whole = #expect(throws: DecodeError.self) { try ImageDecoders.decode(data, path: "t.png") }
        let rows = #expect(throws: DecodeError.self) { try Self.rows(data, path: "t.png") }
        #expect(whole == rows)
    }
}
