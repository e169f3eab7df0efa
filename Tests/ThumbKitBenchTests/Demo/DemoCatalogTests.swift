// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit

@testable import ThumbKitBench

/// The demo catalog's pictures, as `thumbkit demo` writes them.
struct DemoCatalogTests {
    /// The food drill-down shows a category's dishes side by side: each must be its own drawing,
    /// not the same picture twice (nor the same drawing once as JPEG and once as PNG). Compared
    /// decoded, so a PNG and a JPEG of one drawing count as the same.
    @Test func everyDishHasItsOwnPicture() throws {
        let dishes = DemoCatalog.plan().filter { $0.relative.hasPrefix("foods/") }
        #expect(dishes.count == 18)
        var pictures: [(name: String, pixels: [UInt8])] = []
        for dish in dishes {
            let bytes = try dish.make()
            pictures.append((dish.relative, try ImageDecoders.decode(bytes, path: dish.relative).buffer.pixels))
        }
        for (i, a) in pictures.enumerated() {
            for b in pictures[(i + 1)...] {
                // Measured: one drawing as JPEG q90 and as PNG differs by about 2 levels on
                // average, two drawings by 5 or more.
                let difference = Self.meanDifference(a.pixels, b.pixels)
                #expect(difference > 4, "\(a.name) and \(b.name) are one picture (mean difference \(difference))")
            }
        }
    }

    /// The mean absolute difference of two same-sized RGBA buffers, in levels.
    static func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count, "Pictures of different sizes.")
        var total = 0
        for i in a.indices { total += abs(Int(a[i]) - Int(b[i])) }
        return Double(total) / Double(max(1, a.count))
    }
}
