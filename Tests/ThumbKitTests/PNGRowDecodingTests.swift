import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// The row-by-row PNG decoder (png_rows.c) against the simplified-API decoder it replaces in
/// the thumbnail path: the same bytes for every decodable file, the same failure for every
/// other one.
struct PNGRowDecodingTests {
    static let pngRows = TestCorpus.rows { $0.format == "png" && !$0.path.hasPrefix("corrupt/big-png/") }

    /// All rows of a non-interlaced file, concatenated.
    static func rows(_ data: [UInt8], path: String, options: DecodeOptions = DecodeOptions()) throws(DecodeError)
        -> (pixels: [UInt8], decoded: ImageDecoders.StreamedDecode)
    {
        let header = try ImageDecoders.readHeader(data, path: path)
        var pixels: [UInt8] = []
        let decoded = try ImageDecoders.PNG.decodeRows(data, path: path, header: header, options: options) {
            pixels += $0
        }
        return (pixels, decoded)
    }

    @Test(.needsCorpus, .tags(.corpus), arguments: pngRows)
    func rowsAreTheSimplifiedAPIsBytesAndFailuresAreItsFailures(_ row: TestCorpus.Row) throws {
        let data = try TestCorpus.bytes(of: row.path)
        // Both paths read the header first; interlaced files are still decoded whole.
        guard let header = try? ImageDecoders.readHeader(data, path: row.path), !header.isProgressive else { return }
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
        let covered = Self.pngRows.filter { $0.expected == .decode && !$0.note.contains("interlaced") }
        #expect(covered.count > 80)
    }

    @Test func truncatedFileFailsLikeTheWholeDecode() throws {
        let data = try TestImages.bytes(of: "rgb8-gradient-8x8-truncated-in-idat.png")
        let whole = #expect(throws: DecodeError.self) { try ImageDecoders.decode(data, path: "t.png") }
        let rows = #expect(throws: DecodeError.self) { try Self.rows(data, path: "t.png") }
        #expect(whole == rows)
    }
}
