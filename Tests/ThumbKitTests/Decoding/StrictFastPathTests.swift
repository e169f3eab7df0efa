// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// Strict decoding (`failOnWarning`, what the desktop thumbnailer uses) takes the baseline fast
/// path at 1/8 (ImageDecoders+JPEG.swift `begin`). It may do so only because the outcome is the
/// one libjpeg alone gives: the same pixels, warnings and colour, or the same error. Each file
/// here is decoded strictly twice, with the fast paths and with libjpeg only (`fastPaths: false`).
struct StrictFastPathTests {
    static let strict = DecodeOptions(failOnWarning: true)

    /// A strict decode's outcome at 1/8: the image's bytes and messages, or the error.
    enum Outcome: Equatable {
        case image(pixels: [UInt8], warnings: [String], colorWarnings: [String], profile: ColorProfile?)
        case failure(DecodeError)
        /// The bytes do not open as a JPEG source (nothing to compare).
        case notJPEG
    }

    static func outcome(_ data: [UInt8], fastPaths: Bool) -> Outcome {
        do {
            let source = try ImageSource(data, path: "strict.jpg")
            guard source.jpeg != nil else { return .notJPEG }
            let image = try ImageDecoders.JPEG.decode(
                source, options: strict, scaleNumerator: 1, fastPaths: fastPaths)
            return .image(
                pixels: image.buffer.pixels, warnings: image.warnings, colorWarnings: image.colorWarnings,
                profile: image.colorProfile)
        } catch {
            return .failure(error)
        }
    }

    /// True when the strict decoder's fast path serves `data` (and so the comparison means something).
    static func takesFastPath(_ data: [UInt8]) -> Bool {
        guard let source = try? ImageSource(data, path: "strict.jpg") else { return false }
        return ImageDecoders.JPEG.decodeBaselineAtOneEighth(source, directOnly: true) != nil
    }

    /// Holds `data` to the rule; whether the fast path took it.
    @discardableResult
    static func check(_ data: [UInt8], _ label: String) -> Bool {
        let fast = outcome(data, fastPaths: true)
        let reference = outcome(data, fastPaths: false)
        if case .image(let a, _, _, _) = fast, case .image(let b, _, _, _) = reference {
            #expect(firstMismatch(a, b) == nil, "\(label): pixels")
        }
        #expect(fast == reference, "\(label): strict outcome with the fast path differs from libjpeg's")
        return takesFastPath(data)
    }

    @Test(.needsCorpus, .tags(.corpus))
    func everyCorpusJPEGHasLibjpegsStrictOutcome() throws {
        guard TestCorpus.requireCorpus() else { return }
        var taken = 0
        var failures = 0
        for row in TestCorpus.rows(where: { $0.format == "jpeg" }) {
            let data = try TestCorpus.bytes(of: row.path)
            if Self.check(data, row.path) {
                taken += 1
                #expect(!row.isWarning, "\(row.path): libjpeg warns about this file, the fast path must decline")
            }
            if case .failure = Self.outcome(data, fastPaths: false) { failures += 1 }
        }
        print("strict decoding: \(taken) corpus JPEGs took the baseline fast path, \(failures) fail strictly")
        // Both sides of the rule are exercised: files the fast path serves, and files that fail.
        #expect(taken >= 10)
        #expect(failures >= 10)
    }

    @Test(arguments: ["ycc444-baseline-restart3-75x53.jpg", "gray-baseline-q100-75x53.jpg"])
    func damagedEntropyDataHasLibjpegsStrictOutcome(_ name: String) throws {
        // Flip bits all over the entropy-coded data (restart markers included) and cut the file
        // short: whatever the fast path does, the strict outcome must be libjpeg's.
        let data = try TestImages.bytes(of: name)
        #expect(Self.check(data, name))
        let range = try EntropyDamage.firstScan(of: data)
        var taken = 0
        for (index, damaged) in try EntropyDamage.bitFlips(of: data, count: 200, seed: 29)
        where Self.check(damaged, "\(name) byte \(index)") {
            taken += 1
        }
        for cut in stride(from: range.lowerBound, to: data.count, by: max(1, range.count / 37)) {
            #expect(!Self.check(Array(data.prefix(cut)), "\(name) cut at \(cut)"))
        }
        print("\(name): the fast path took \(taken) of 200 damaged files")
    }

    /// `data` with `segment` (marker and payload; the length is added) inserted before its EOI.
    static func inserting(_ marker: UInt8, _ payload: [UInt8], beforeEOIOf data: [UInt8]) throws -> [UInt8] {
        #expect(Array(data.suffix(2)) == [0xFF, 0xD9])
        let length = payload.count + 2
        return Array(data.dropLast(2)) + [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
            + [0xFF, 0xD9]
    }

    @Test func jfifSegmentAfterTheScanMakesTheFastPathDeclineAndTheStrictDecodeFail() throws {
        // A JFIF APP0 of version 2.01 after the scan: libjpeg reads it on its way to EOI and
        // warns ("Warning: unknown JFIF revision number 2.01"), after the header was read clean.
        let data = try TestImages.bytes(of: "ycc444-baseline-restart3-75x53.jpg")
        let jfif = Array("JFIF\0".utf8) + [2, 1, 0, 0, 1, 0, 1, 0, 0]
        let late = try Self.inserting(0xE0, jfif, beforeEOIOf: data)
        #expect(!Self.check(late, "late JFIF"))
        guard case .failure(let error) = Self.outcome(late, fastPaths: true) else {
            Issue.record("a strict decode of a file libjpeg warns about succeeded")
            return
        }
        #expect(error.description.contains("JFIF"))
    }

    @Test func commentAfterTheScanStillTakesTheFastPath() throws {
        let data = try TestImages.bytes(of: "ycc444-baseline-restart3-75x53.jpg")
        let commented = try Self.inserting(0xFE, Array("made by hand".utf8), beforeEOIOf: data)
        #expect(Self.check(commented, "late COM"))
        guard case .image = Self.outcome(commented, fastPaths: true) else {
            Issue.record("a comment after the scan failed the strict decode")
            return
        }
    }
}
