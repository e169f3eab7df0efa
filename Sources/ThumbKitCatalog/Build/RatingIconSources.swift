// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// The catalog's rating icon files, read and hashed: the source of every rating strip.
struct RatingIconSources: Sendable {
    struct File: Sendable {
        let path: String
        let bytes: [UInt8]
        let sha256: String
    }

    let empty: File
    let half: File?
    let full: File

    /// Whether a half icon was given (else it is synthesised by a left/right split).
    var halfGiven: Bool { half != nil }

    /// One hash for the three files: SHA-256 of `empty=<sha>\nhalf=<sha or ->\nfull=<sha>`.
    var sha256: String {
        ContentHash.sha256(of: Array("empty=\(empty.sha256)\nhalf=\(half?.sha256 ?? "-")\nfull=\(full.sha256)".utf8))
    }

    /// The icons named in `assets`: nil when none is set.
    ///
    /// - Throws: `CatalogError.invalidDocument` (path `ratingIcons`) when only some are set, or
    ///   `.io` when one cannot be read.
    static func load(_ assets: CatalogAssets) throws(CatalogError) -> RatingIconSources? {
        if assets.ratingEmpty == nil, assets.ratingHalf == nil, assets.ratingFull == nil { return nil }
        guard let emptyPath = assets.ratingEmpty, let fullPath = assets.ratingFull else {
            throw CatalogError.invalidDocument(
                path: "ratingIcons", reason: "both the empty and the full icon are needed (the half one is optional)")
        }
        return RatingIconSources(
            empty: try read(emptyPath), half: try assets.ratingHalf.map { path throws(CatalogError) in try read(path) },
            full: try read(fullPath))
    }

    private static func read(_ path: String) throws(CatalogError) -> File {
        do {
            let bytes = try FileIO.read(path)
            return File(path: path, bytes: bytes, sha256: ContentHash.sha256(of: bytes))
        } catch {
            throw CatalogError.io(path: path, reason: error.reason)
        }
    }

    /// The decoded icons.
    func decode() throws(DecodeError) -> RatingIcons {
        func image(_ file: File) throws(DecodeError) -> PixelBuffer {
            let decoded = try ImageDecoders.decode(file.bytes, path: file.path)
            return decoded.buffer.applying(decoded.header.orientation)
        }
        return RatingIcons(
            empty: try image(empty), half: try half.map { file throws(DecodeError) in try image(file) },
            full: try image(full))
    }
}
