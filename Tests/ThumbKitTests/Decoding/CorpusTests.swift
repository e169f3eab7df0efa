// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

/// Every file of the shared corpus, held to its MANIFEST.tsv row: `decode` rows decode at full
/// size to exactly the stated width × height, `reject` rows throw a `DecodeError` naming the file.
struct CorpusTests {
    static let decodeRows = TestCorpus.rows { $0.expected == .decode }
    static let rejectRows = TestCorpus.rows { $0.expected == .reject }
    static let warningRows = TestCorpus.rows { $0.expected == .decode && $0.isWarning }
    static let pngSuiteXRows = TestCorpus.rows { $0.path.hasPrefix("pngsuite/x") }

    @Test(.needsCorpus, .tags(.corpus)) func corpusIsPresentAndEveryListedFileHasItsStatedSize() throws {
        guard TestCorpus.requireCorpus() else { return }
        let rows = TestCorpus.allRows
        #expect(rows.count > 400)
        #expect(rows.contains { $0.expected == .reject })
        for row in rows {
            let attributes = try FileManager.default.attributesOfItem(atPath: TestCorpus.url(for: row).path)
            #expect((attributes[.size] as? Int) == row.bytes, "\(row.path)")
        }
    }

    @Test(.needsCorpus, .tags(.corpus), arguments: decodeRows)
    func decodeRowDecodesToTheManifestSize(_ row: TestCorpus.Row) throws {
        let path = TestCorpus.url(for: row).path
        let data = try TestCorpus.bytes(of: row.path)
        let image = try ImageDecoders.decode(data, path: path)
        #expect(image.buffer.width == row.width)
        #expect(image.buffer.height == row.height)
        #expect(image.header.width == row.width && image.header.height == row.height)
        #expect(image.scaleNumerator == 8)
        #expect(image.header.format.rawValue == row.format)
    }

    @Test(.needsCorpus, .tags(.corpus), arguments: rejectRows)
    func rejectRowThrowsADecodeErrorNamingTheFile(_ row: TestCorpus.Row) throws {
        let path = TestCorpus.url(for: row).path
        let data = try TestCorpus.bytes(of: row.path)
        let error = #expect(throws: DecodeError.self) {
            try ImageDecoders.decode(data, path: path)
        }
        #expect(error?.path == path)
        #expect(error?.description.hasPrefix("\(path): ") == true)
        #expect(error?.reason.isEmpty == false)
        #expect(error?.reason.contains("\n") == false)
    }

    @Test(.needsCorpus, .tags(.corpus), arguments: pngSuiteXRows)
    func pngSuiteCorruptFileIsRejected(_ row: TestCorpus.Row) throws {
        #expect(row.expected == .reject)
        let data = try TestCorpus.bytes(of: row.path)
        #expect(throws: DecodeError.self) { try ImageDecoders.decode(data, path: row.path) }
    }

    @Test(.needsCorpus, .tags(.corpus)) func everyPngSuiteCorruptFileIsListed() {
        guard TestCorpus.requireCorpus() else { return }
        // 4 bad signatures, 2 transfer-damaged, 2 bad colour types, 3 bad depths, 2 bad CRCs, no IDAT.
        #expect(Self.pngSuiteXRows.count == 14)
    }

    @Test(
        .needsCorpus, .tags(.corpus),
        arguments: ["jpeg/libjpeg-turbo/monkey12.jpg", "jpeg/libjpeg-turbo/testorig12.jpg"])
    func twelveBitJPEGIsUnsupported(_ path: String) throws {
        guard TestCorpus.requireCorpus() else { return }
        let data = try TestCorpus.bytes(of: path)
        #expect(throws: DecodeError.unsupported(path: path, reason: "unsupported JPEG data precision 12")) {
            try ImageDecoders.decode(data, path: path)
        }
    }

    /// Warning rows whose warning is about a colour chunk (libpng's "iCCP: known incorrect sRGB
    /// profile"): never fatal, as the README says of colour-profile warnings.
    static let profileWarningRows = warningRows.filter { $0.note.contains("warning: iCCP:") }

    @Test(.needsCorpus, .tags(.corpus)) func theProfileWarningRowsIncludeThePhotos() {
        guard TestCorpus.requireCorpus() else { return }
        #expect(
            Set(Self.profileWarningRows.map(\.path)).isSuperset(of: ["photos/chelsea.png", "photos/astronaut.png"]))
    }

    @Test(.needsCorpus, .tags(.corpus), arguments: profileWarningRows)
    func colourProfileWarningRowDecodesEvenWhenWarningsAreFatal(_ row: TestCorpus.Row) throws {
        let data = try TestCorpus.bytes(of: row.path)
        let lenient = try ImageDecoders.decode(data, path: row.path)
        let strict = try ImageDecoders.decode(data, path: row.path, options: DecodeOptions(failOnWarning: true))
        #expect(strict.warnings == lenient.warnings && !strict.warnings.isEmpty)
        #expect(strict.buffer == lenient.buffer)
    }

    @Test(.needsCorpus, .tags(.corpus), arguments: warningRows.filter { !profileWarningRows.contains($0) })
    func warningRowDecodesWithAWarningAndFailsWhenWarningsAreFatal(_ row: TestCorpus.Row) throws {
        let data = try TestCorpus.bytes(of: row.path)
        let image = try ImageDecoders.decode(data, path: row.path)
        #expect(!image.warnings.isEmpty)
        let strict = DecodeOptions(failOnWarning: true)
        let error = #expect(throws: DecodeError.self) {
            try ImageDecoders.decode(data, path: row.path, options: strict)
        }
        guard case .warning(let path, let reason) = error else {
            Issue.record("expected .warning, got \(String(describing: error))")
            return
        }
        #expect(path == row.path)
        #expect(reason == image.warnings.first)
    }

    @Test(.needsCorpus, .tags(.corpus), arguments: TestCorpus.rows { $0.expected == .decode && !$0.isWarning })
    func cleanRowDecodesWithoutWarningsEvenWhenWarningsAreFatal(_ row: TestCorpus.Row) throws {
        let data = try TestCorpus.bytes(of: row.path)
        let image = try ImageDecoders.decode(data, path: row.path, options: DecodeOptions(failOnWarning: true))
        #expect(image.warnings.isEmpty)
    }

    @Test(.needsCorpus, .tags(.corpus)) func bigPNGHeaderIsReadWithoutDecodingItsPixels() throws {
        guard TestCorpus.requireCorpus() else { return }
        let path = "corrupt/big-png/spark.png"
        let header = try ImageDecoders.readHeader(try TestCorpus.bytes(of: path), path: path)
        #expect(header.width == 225_000 && header.height == 225_000)
        #expect(header.width * header.height > ImageLimits.defaultMaxPixels)
    }

    @Test(.needsCorpus, .tags(.corpus), arguments: ["corrupt/big-png/spark.png", "corrupt/jpeg-decoder/max_size.jpg"])
    func gigapixelFileIsRefusedAsOverLimit(_ path: String) throws {
        guard TestCorpus.requireCorpus() else { return }
        let data = try TestCorpus.bytes(of: path)
        let error = #expect(throws: DecodeError.self) { try ImageDecoders.decode(data, path: path) }
        guard case .overLimit = error else {
            Issue.record("expected .overLimit, got \(String(describing: error))")
            return
        }
    }

    @Test(.needsCorpus, .tags(.corpus), arguments: TestCorpus.rows { $0.path.hasPrefix("jpeg/exif-orientation/") })
    func exifOrientationExampleReportsItsTag(_ row: TestCorpus.Row) throws {
        // Landscape_N / Portrait_N carry tag N; 0 means no tag, which reads as .up.
        let stem = URL(fileURLWithPath: row.path).deletingPathExtension().lastPathComponent
        let tag = try #require(stem.split(separator: "_").last.flatMap { Int($0) })
        let expected = tag == 0 ? ExifOrientation.up : try #require(ExifOrientation(rawValue: tag))
        let data = try TestCorpus.bytes(of: row.path)
        let header = try ImageDecoders.readHeader(data, path: row.path)
        #expect(header.orientation == expected)
        #expect(ExifReader.orientation(inJPEG: data) == (tag == 0 ? nil : expected))
        // Every landscape shows 1800×1200 once turned, every portrait 1200×1800.
        let shown = header.orientedSize
        #expect(stem.hasPrefix("Landscape") ? shown == (1800, 1200) : shown == (1200, 1800))
    }
}
