// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// The row-by-row JPEG decoder (jpeg_rows.c) against the whole-image decoder it replaces in the
/// batch thumbnail path: the same bytes for every decodable file at every scale used, the same
/// warnings, the same failure for every other file.
struct JPEGRowDecodingTests {
    static let jpegRows = TestCorpus.rows { $0.format == "jpeg" && $0.bytes < 300_000 }

    /// All rows of a file at `numerator`/8, concatenated.
    static func rows(_ data: [UInt8], path: String, numerator: Int, options: DecodeOptions) throws(DecodeError)
        -> (pixels: [UInt8], decoded: ImageDecoders.StreamedDecode)
    {
        var pixels: [UInt8] = []
        let decoded = try ImageDecoders.JPEG.decodeRows(
            ImageSource(data, path: path), options: options, scaleNumerator: numerator
        ) {
            pixels += $0
        }
        return (pixels, decoded)
    }

    @Test(.needsCorpus, .tags(.corpus), arguments: jpegRows)
    func rowsAreTheWholeDecodesBytesAndFailuresAreItsFailures(_ row: TestCorpus.Row) throws {
        let data = try TestCorpus.bytes(of: row.path)
        for numerator in [1, 3, 8] {
            for options in [DecodeOptions(), DecodeOptions(failOnWarning: true)] {
                let whole = Result { () throws(DecodeError) in
                    try ImageDecoders.JPEG.decode(
                        ImageSource(data, path: row.path), options: options, scaleNumerator: numerator)
                }
                let streamed = Result { () throws(DecodeError) in
                    try Self.rows(data, path: row.path, numerator: numerator, options: options)
                }
                switch (whole, streamed) {
                case (.success(let image), .success(let rows)):
                    #expect(firstMismatch(rows.pixels, image.buffer.pixels) == nil, "\(numerator)/8")
                    #expect(rows.decoded.warnings == image.warnings, "\(numerator)/8")
                    #expect(rows.decoded.color.warnings == image.colorWarnings, "\(numerator)/8")
                    #expect(rows.decoded.color.profile == image.colorProfile, "\(numerator)/8")
                case (.failure(let a), .failure(let b)):
                    #expect(a == b, "\(numerator)/8")
                default:
                    Issue.record("\(numerator)/8: whole decode \(whole) but rows \(streamed)")
                }
            }
        }
    }

    @Test(.needsCorpus, .tags(.corpus)) func decodableFilesAreCovered() {
        guard TestCorpus.requireCorpus() else { return }
        #expect(Self.jpegRows.filter { $0.expected == .decode }.count > 40)
        #expect(Self.jpegRows.contains { $0.note.contains("progressive") && $0.expected == .decode })
        #expect(Self.jpegRows.contains { $0.note.contains("4ch") && $0.expected == .decode })  // CMYK
    }
}
