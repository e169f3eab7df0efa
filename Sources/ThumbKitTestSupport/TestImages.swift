// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The repository's own `TestImages/` folder: small generated images and hand-made broken files.
public enum TestImages {
    /// The package root, three levels above this file (`Sources/ThumbKitTestSupport/…`).
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // ThumbKitTestSupport
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // package root
    }

    /// `<package root>/TestImages`.
    public static var root: URL { packageRoot.appendingPathComponent("TestImages", isDirectory: true) }

    /// The location of a file in `TestImages/`.
    public static func url(for name: String) -> URL { root.appendingPathComponent(name) }

    /// The bytes of a file in `TestImages/`.
    public static func bytes(of name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(for: name)))
    }
}
