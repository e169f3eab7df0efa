// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Glibc

/// A sequential scan cut at restart markers into runs of whole intervals that can be decoded at
/// the same time: each run starts with fresh DC predictions just after a marker, so one thread
/// need not wait for the bits before it.
///
/// The markers are found by a pass over the scan's bytes (0xFF followed by 0xD0–0xD7; inside
/// entropy-coded data any other 0xFF is stuffed as 0xFF00). Nil, and the caller decodes the scan
/// in one run, unless the scan has exactly one marker between consecutive intervals, numbered
/// RST0…RST7 in turn, and at least two intervals: a damaged file is then read by the one-run
/// decoder, which fails on it as before.
struct JPEGRestartSegments {
    /// One run: its MCUs, the bytes from its first interval's start to the marker after its
    /// last (the scan's end for the last run), and whether it is the last.
    struct Segment: Sendable {
        let mcus: Range<Int>
        let data: Range<Int>
        let endsScan: Bool
    }

    let segments: [Segment]

    /// Cuts the scan whose entropy-coded data is `bytes[data]` (`mcuCount` MCUs, a marker after
    /// every `interval`) into at most `parts` runs of about equal size.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, data: Range<Int>, interval: Int, mcuCount: Int, parts: Int) {
        guard interval > 0, parts > 1, data.lowerBound >= 0, data.upperBound <= bytes.count else { return nil }
        let intervals = (mcuCount + interval - 1) / interval
        guard intervals >= 2 else { return nil }
        guard let markers = Self.markers(bytes, data: data, limit: intervals), markers.count == intervals - 1
        else { return nil }
        let runs = min(parts, intervals)
        var segments: [Segment] = []
        var start = data.lowerBound
        var firstInterval = 0
        for run in 0..<runs {
            let nextInterval = (run + 1) * intervals / runs
            let last = run == runs - 1
            let end = last ? data.upperBound : markers[nextInterval - 1]
            segments.append(
                Segment(
                    mcus: (firstInterval * interval)..<min(nextInterval * interval, mcuCount), data: start..<end,
                    endsScan: last))
            if !last { start = markers[nextInterval - 1] + 2 }
            firstInterval = nextInterval
        }
        self.segments = segments
    }

    /// Where each restart marker of `bytes[data]` starts, in order; nil when one is numbered out
    /// of turn, when another marker or a lone 0xFF occurs, or past `limit` markers.
    static func markers(_ bytes: UnsafeBufferPointer<UInt8>, data: Range<Int>, limit: Int) -> [Int]? {
        var markers: [Int] = []
        var position = data.lowerBound
        let base = bytes.baseAddress!
        while position < data.upperBound {
            guard let found = memchr(base + position, 0xFF, data.upperBound - position) else { break }
            let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            guard at + 1 < data.upperBound else { return nil }
            let next = bytes[at + 1]
            if next == 0 {
                position = at + 2
                continue
            }
            guard next == 0xD0 + UInt8(markers.count & 7), markers.count < limit else { return nil }
            markers.append(at)
            position = at + 2
        }
        return markers
    }

    /// Runs `decode` for every segment, each on a thread of its own (`concurrentPerform`), and
    /// returns whether all of them succeeded.
    func decodeInParallel(_ decode: (Segment) -> Bool) -> Bool {
        let results = UnsafeMutableBufferPointer<Bool>.allocate(capacity: segments.count)
        results.initialize(repeating: false)
        defer { results.deallocate() }
        // Safe to share: iteration i writes only results[i], and `decode` writes only the blocks
        // of segment i's MCUs (disjoint by construction); concurrentPerform returns after every
        // iteration has finished, before `results` is read or freed.
        nonisolated(unsafe) let shared = results
        nonisolated(unsafe) let decode = decode
        let segments = segments
        DispatchQueue.concurrentPerform(iterations: segments.count) { i in
            shared[i] = decode(segments[i])
        }
        return results.allSatisfy { $0 }
    }
}
