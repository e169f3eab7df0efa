// SPDX-License-Identifier: Apache-2.0
/// A record's source image: where it is and the SHA-256 of its bytes when it was recorded.
public struct ImageRef: Sendable, Hashable, Codable {
    /// The image's path (absolute when it came from an import).
    public let path: String
    /// SHA-256 of the file's bytes, 64 lower-case hex digits.
    public let sha256: String

    public init(path: String, sha256: String) {
        self.path = path
        self.sha256 = sha256
    }

    /// Hashes the file at `path` now.
    ///
    /// - Throws: `CatalogError.io` when the file cannot be read.
    public static func load(path: String) throws(CatalogError) -> ImageRef {
        ImageRef(path: path, sha256: try ContentHash.sha256(ofFileAt: path))
    }

    /// The image for a food called `name` in `folder`: `<name>.png`, `.jpg` or `.jpeg` (or
    /// upper-case), hashed. A name that could leave the folder or name a hidden file (`/`, NUL,
    /// a leading `.`, an empty name) finds nothing.
    ///
    /// - Throws: `CatalogError.notFound` (`no image named 'X' in <folder>`), or `.io` /
    ///   `.invalidRecord` when the file found cannot be read or is not a PNG or JPEG.
    public static func find(named name: String, in folder: String) throws(CatalogError) -> ImageRef {
        try ImportPlan.image(named: name, in: folder, label: folder).get()
    }
}
