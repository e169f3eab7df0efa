// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKit

/// Damaged copies of a JPEG for the fast paths' exactness tests: one bit flipped at a time,
/// all over the first scan's entropy-coded data (restart markers included), from a fixed seed
/// so a failure names a byte that fails again.
enum EntropyDamage {
    /// The first scan's entropy-coded bytes of `data`.
    static func firstScan(of data: [UInt8]) throws -> Range<Int> {
        let layout = try #require(JPEGScanLayout(data))
        return try #require(
            layout.parts.compactMap { part -> Range<Int>? in
                if case .scan(let scan) = part { return scan.data }
                return nil
            }.first)
    }

    /// `count` copies of `data`, each with one bit of its first scan flipped, and the flipped
    /// byte's index.
    static func bitFlips(of data: [UInt8], count: Int, seed: UInt32) throws -> [(index: Int, bytes: [UInt8])] {
        let range = try firstScan(of: data)
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            let index = range.lowerBound + Int(state >> 8) % range.count
            state = state &* 1_664_525 &+ 1_013_904_223
            var damaged = data
            damaged[index] ^= UInt8(1 << (state % 8))
            return (index, damaged)
        }
    }
}
