// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// A record's new source picture, checked before the catalog is touched: the checks of
/// `catalog import` and `catalog set-image`, the same as `watch` makes on an inbox file.
///
/// 1. read the file with `FileIO.read` (the reader `thumb` uses): only a regular file, opened
///    non-blocking, refused over `limits.maxFileBytes` before any read, so a FIFO, `/dev/zero`
///    or a folder is refused at once instead of blocking or spinning;
/// 2. read the header and check its size against the pixel and dimension limits;
/// 3. decode it (JPEGs at 1/8 scale, which still reads every coefficient), with JPEG warnings
///    fatal: a truncated JPEG only makes libjpeg warn and pad with grey;
/// 4. hash the very bytes that were checked, so the hash cannot describe another file.
public enum SourceImage {
    /// The picture at `path`, checked and hashed.
    ///
    /// - Throws: `CatalogError.missingFile` when there is no such file, `.invalidRecord` with the
    ///   decoder's reason when it is not a usable PNG or JPEG, `.io` when it cannot be read.
    public static func load(path: String, limits: ImageLimits = ImageLimits()) throws(CatalogError) -> ImageRef {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path, maxBytes: limits.maxFileBytes)
        } catch {
            if case .unreadable = error, !exists(path) { throw CatalogError.missingFile(path) }
            if case .unreadable = error { throw CatalogError.io(path: path, reason: error.reason) }
            throw CatalogError.invalidRecord(path: path, reason: error.reason)
        }
        do {
            try validate(bytes, path: path, limits: limits)
        } catch {
            throw CatalogError.invalidRecord(path: path, reason: error.reason)
        }
        return ImageRef(path: path, sha256: ContentHash.sha256(of: bytes))
    }

    /// The one check a picture passes before a record uses it (import, set-image and the watch
    /// folder): its header, the limits, then a decode at 1/8 with JPEG warnings fatal, since a
    /// truncated upload only makes libjpeg warn ("premature end of data") and pad with grey.
    /// libpng already fails on truncation, and its colour-profile warnings are benign.
    package static func validate(_ bytes: [UInt8], path: String, limits: ImageLimits) throws(DecodeError) {
        try validate(ImageSource(bytes, path: path), limits: limits)
    }

    /// `validate(_:path:limits:)` for a source whose header is already read.
    package static func validate(_ source: ImageSource, limits: ImageLimits) throws(DecodeError) {
        let header = source.header
        try limits.check(width: header.width, height: header.height, path: source.path)
        let options = DecodeOptions(limits: limits, failOnWarning: header.format == .jpeg)
        _ = try ImageDecoders.decode(source, options: options, minimumScale: 1.0 / 8)
    }

    /// Whether anything (even a dangling link) is at `path`.
    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
