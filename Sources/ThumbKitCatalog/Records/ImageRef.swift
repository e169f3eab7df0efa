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
}
