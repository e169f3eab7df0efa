// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog
/// A path compared by its bytes, for keying per-file state.
///
/// Swift `String` equality is Unicode canonical equivalence, so `café` written with U+00E9 and
/// `café` written with `e` + U+0301 are equal strings, yet they are two different files on
/// Linux (the kernel compares names byte by byte). Keyed by `String`, one of the two would
/// overwrite the other's state and never be processed. This key compares the UTF-8 bytes.
package struct FilePathKey: Hashable, Sendable, CustomStringConvertible {
    /// The path's UTF-8 bytes: what equality and hashing use.
    package let bytes: [UInt8]
    /// The path itself.
    package let path: String

    /// The key of `path`.
    package init(_ path: String) {
        self.path = path
        self.bytes = Array(path.utf8)
    }

    package static func == (lhs: FilePathKey, rhs: FilePathKey) -> Bool { lhs.bytes == rhs.bytes }

    package func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    /// Whether this path is `folder` or lies inside it, comparing bytes.
    package func isInside(_ folder: FilePathKey) -> Bool {
        bytes.count > folder.bytes.count && bytes.starts(with: folder.bytes)
            && bytes[folder.bytes.count] == UInt8(ascii: "/")
    }

    package var description: String { path }
}
