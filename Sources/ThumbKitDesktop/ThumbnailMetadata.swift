// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import ThumbKit

/// What a thumbnail says about its source, in the standard's `tEXt` keys.
public struct ThumbnailMetadata: Sendable, Hashable {
    /// `Thumb::URI`: the source's canonical `file://` URI.
    public var uri: String
    /// `Thumb::MTime`: the source's modification time in whole seconds, as `stat` gives it.
    public var mtime: Int
    /// `Thumb::Size`: the source's size in bytes (GIO checks it).
    public var size: Int?
    /// `Thumb::Mimetype`.
    public var mimeType: String?
    /// `Thumb::Image::Width` and `Thumb::Image::Height`: the original's stored dimensions.
    public var imageWidth: Int?
    /// See `imageWidth`.
    public var imageHeight: Int?
    /// `Software`: the program that wrote the thumbnail.
    public var software: String?

    /// Metadata from its parts.
    public init(
        uri: String, mtime: Int, size: Int? = nil, mimeType: String? = nil, imageWidth: Int? = nil,
        imageHeight: Int? = nil, software: String? = nil
    ) {
        self.uri = uri
        self.mtime = mtime
        self.size = size
        self.mimeType = mimeType
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.software = software
    }

    /// The chunks to write, in the standard's order (absent optional values are left out).
    package var textChunks: PNGTextChunks {
        var entries = [PNGTextChunks.Entry("Thumb::URI", uri), PNGTextChunks.Entry("Thumb::MTime", String(mtime))]
        if let size { entries.append(.init("Thumb::Size", String(size))) }
        if let mimeType { entries.append(.init("Thumb::Mimetype", mimeType)) }
        if let imageWidth { entries.append(.init("Thumb::Image::Width", String(imageWidth))) }
        if let imageHeight { entries.append(.init("Thumb::Image::Height", String(imageHeight))) }
        if let software { entries.append(.init("Software", software)) }
        return PNGTextChunks(entries)
    }

    /// The metadata of a thumbnail's chunks; nil unless it has a `Thumb::URI` and a decimal
    /// `Thumb::MTime` (a PNG without them is not a thumbnail anyone can match to a source).
    package init?(_ chunks: PNGTextChunks) {
        guard let uri = chunks["Thumb::URI"], let mtimeText = chunks["Thumb::MTime"],
            let mtime = Int(mtimeText)
        else { return nil }
        self.init(
            uri: uri, mtime: mtime, size: chunks["Thumb::Size"].flatMap { Int($0) },
            mimeType: chunks["Thumb::Mimetype"],
            imageWidth: chunks["Thumb::Image::Width"].flatMap { Int($0) },
            imageHeight: chunks["Thumb::Image::Height"].flatMap { Int($0) }, software: chunks["Software"])
    }

    /// Reads the metadata of the thumbnail at `path` without decoding its pixels. nil when the
    /// file is missing, unreadable, not a PNG, or has no `Thumb::URI` and `Thumb::MTime`.
    /// A symlink is not followed (the cache holds plain files).
    public static func read(at path: String, maxBytes: Int = 16 << 20) -> ThumbnailMetadata? {
        guard let bytes = readRegularFile(path, maxBytes: maxBytes),
            let chunks = try? PNGTextChunks.read(bytes, path: path)
        else { return nil }
        return ThumbnailMetadata(chunks)
    }

    /// The bytes of the regular file at `path` (not through a symlink), nil when there is none
    /// or it is larger than `maxBytes`.
    static func readRegularFile(_ path: String, maxBytes: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if fd < 0 { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) <= maxBytes else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            offset += n
        }
        return offset == bytes.count ? bytes : nil
    }
}
