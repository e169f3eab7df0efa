// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// One folder of a benchmark corpus: `DIR/jpeg/*.jpg` or `DIR/png/*.png`.
package enum BenchImageSet: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Real photographs as JPEG.
    case jpeg
    /// PNG pictures, some with transparency.
    case png

    /// The folder name inside the corpus.
    package var folder: String { rawValue }

    /// The format of the files in the set.
    package var format: ImageFormat { self == .jpeg ? .jpeg : .png }

    package static func < (lhs: BenchImageSet, rhs: BenchImageSet) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
