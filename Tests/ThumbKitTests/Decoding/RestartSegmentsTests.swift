// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// Restart intervals decoded on several threads (`JPEGRestartSegments`): the same coefficients
/// and pixels as the one-run decode, the same refusals on damage, and the cut itself.
struct RestartSegmentsTests {
    static let files = [
        "ycc444-baseline-restart3-75x53.jpg", "ycc420-baseline-restart2-75x53.jpg",
        "ycc440-baseline-restart1row-75x53.jpg",
    ]

    static func coefficients(_ data: [UInt8], threads: Int) -> [Int16]? {
        guard let layout = JPEGScanLayout(data) else { return nil }
        let frame = layout.frame
        let kept = frame.components.map {
            JPEGProgressiveCoefficients.keptPositions(
                idctSize: ImageDecoders.JPEG.idctSizeAtOneEighth($0, frame: frame))
        }
        return JPEGProgressiveCoefficients.decodeSequential(layout, kept: kept, threads: threads)?.coefficients
    }

    @Test(arguments: files)
    func parallelDecodeGivesTheOneRunCoefficientsAndLibjpegsPixels(_ name: String) throws {
        let data = try TestImages.bytes(of: name)
        let one = try #require(Self.coefficients(data, threads: 1))
        let source = try ImageSource(data, path: "x.jpg")
        for threads in [2, 3, 7] {
            #expect(Self.coefficients(data, threads: threads) == one, "\(name), \(threads) threads")
            let fast = try #require(ImageDecoders.JPEG.decodeBaselineAtOneEighth(source, threads: threads))
            #expect(fast.route == .direct)
            #expect(firstMismatch(fast.pixels, try BaselineDCDecodingTests.wholeFile(data)) == nil)
        }
    }

    @Test(arguments: files)
    func damageIsRefusedOrReadAsLibjpegReadsIt(_ name: String) throws {
        // Bit flips all over the entropy-coded data, restart markers included: with two threads,
        // the fast path still answers exactly when the one-run decode does, with its coefficients.
        let data = try TestImages.bytes(of: name)
        var answered = 0
        var refused = 0
        for (index, damaged) in try EntropyDamage.bitFlips(of: data, count: 300, seed: 5) {
            let one = Self.coefficients(damaged, threads: 1)
            #expect(Self.coefficients(damaged, threads: 2) == one, "\(name), byte \(index)")
            if one == nil { refused += 1 } else { answered += 1 }
        }
        #expect(answered > 0 && refused > 0)
    }

    @Test func theScanIsCutAtItsMarkersIntoRunsOfWholeIntervals() throws {
        let data = try TestImages.bytes(of: "ycc444-baseline-restart3-75x53.jpg")
        let layout = try #require(JPEGScanLayout(data))
        guard case .scan(let scan) = try #require(layout.parts.first { if case .scan = $0 { true } else { false } })
        else { return }
        let mcus = layout.frame.mcusPerRow * layout.frame.mcuRows
        try data.withUnsafeBufferPointer { bytes in
            let intervals = (mcus + 2) / 3
            let markers = try #require(JPEGRestartSegments.markers(bytes, data: scan.data, limit: intervals))
            #expect(markers.count == intervals - 1)
            #expect(markers.enumerated().allSatisfy { bytes[$1] == 0xFF && bytes[$1 + 1] == 0xD0 + UInt8($0 & 7) })
            let cut = try #require(
                JPEGRestartSegments(bytes, data: scan.data, interval: 3, mcuCount: mcus, parts: 2))
            #expect(cut.segments.count == 2)
            #expect(cut.segments[0].mcus.lowerBound == 0 && cut.segments[1].mcus.upperBound == mcus)
            #expect(cut.segments[0].mcus.upperBound == cut.segments[1].mcus.lowerBound)
            #expect(cut.segments[0].mcus.upperBound % 3 == 0)
            #expect(cut.segments[0].data.upperBound + 2 == cut.segments[1].data.lowerBound)
            #expect(!cut.segments[0].endsScan && cut.segments[1].endsScan)
            // A wrong interval (more markers than it allows), one part, or no interval: no cut.
            #expect(JPEGRestartSegments(bytes, data: scan.data, interval: 6, mcuCount: mcus, parts: 2) == nil)
            #expect(JPEGRestartSegments(bytes, data: scan.data, interval: 3, mcuCount: mcus, parts: 1) == nil)
            #expect(JPEGRestartSegments(bytes, data: scan.data, interval: 0, mcuCount: mcus, parts: 2) == nil)
        }
        // A marker numbered out of turn: no cut (the one-run decoder then refuses the file).
        var swapped = data
        let first = try #require(
            data.withUnsafeBufferPointer { JPEGRestartSegments.markers($0, data: scan.data, limit: .max) }?.first)
        swapped[first + 1] = 0xD3
        swapped.withUnsafeBufferPointer { bytes in
            #expect(JPEGRestartSegments.markers(bytes, data: scan.data, limit: .max) == nil)
        }
        #expect(Self.coefficients(swapped, threads: 2) == nil)
    }
}
