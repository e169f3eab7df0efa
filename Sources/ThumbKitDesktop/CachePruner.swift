// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// Removes stale entries from a thumbnail cache: those whose source (`Thumb::URI`, a local
/// `file://` URI) no longer exists or has another mtime than `Thumb::MTime`.
///
/// It looks only in the four size folders and in ThumbKit's own `fail/thumbkit-<version>`
/// folder, never in another program's fail folder or anywhere else. A file is removed only when
/// all of these hold: it is a regular file (not a symlink) named `<32 hex>.png`; it is a PNG whose
/// `tEXt` chunks hold `Thumb::URI` and `Thumb::MTime`; that URI is a local `file://` URI; the
/// file's name is the MD5 of that URI (so it is the cache's entry for that source and not some
/// file that happens to carry the keys); and the source is gone or its mtime differs. Anything
/// else (foreign PNGs, files without the chunks, `http://` or `trash://` URIs) is left alone.
public struct CachePruner: Sendable {
    /// The cache to prune.
    public var cache: ThumbnailCache

    /// A pruner for `cache`.
    public init(cache: ThumbnailCache) {
        self.cache = cache
    }

    /// One removed entry.
    public struct Removal: Sendable, Hashable, Codable {
        /// The cache file removed.
        public var path: String
        /// Its `Thumb::URI`.
        public var uri: String
        /// `source missing` or `source modified`.
        public var reason: String
    }

    /// The folders looked in: the size folders, then ThumbKit's fail folder.
    public var folders: [String] {
        ThumbnailSize.allCases.map { cache.folder(for: $0) } + [cache.failDirectory]
    }

    /// Removes every stale entry and returns what was removed; `failures` gets one line for an
    /// entry that could not be removed.
    public func prune(failures: inout [String]) -> [Removal] {
        var removed: [Removal] = []
        for folder in folders {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names.sorted() where Self.isCacheName(name) {
                let path = folder + "/" + name
                guard let (reason, uri, st) = staleness(path, name: name) else { continue }
                // Remove only the very file that was judged (not one renamed into its place).
                var now = stat()
                guard lstat(path, &now) == 0, now.st_ino == st.st_ino, now.st_dev == st.st_dev else { continue }
                if unlink(path) == 0 {
                    removed.append(Removal(path: path, uri: uri, reason: reason))
                } else {
                    failures.append("\(path): cannot remove: \(String(cString: strerror(errno)).lowercased())")
                }
            }
        }
        return removed
    }

    /// `<32 lower-case hex digits>.png`.
    static func isCacheName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count == 36, name.hasSuffix(".png") else { return false }
        return bytes.prefix(32).allSatisfy {
            ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
        }
    }

    /// Why the entry at `path` is stale, with its URI and its lstat; nil when it is valid or not
    /// provably a cache entry.
    private func staleness(_ path: String, name: String) -> (String, String, stat)? {
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG,
            let entry = ThumbnailMetadata.read(at: path), ThumbnailCache.fileName(forURI: entry.uri) == name,
            let sourcePath = FileURI.path(fromURI: entry.uri)
        else { return nil }
        var source = stat()
        let found = sourcePath.withUnsafeBufferPointer { bytes -> Int32 in
            let cPath = bytes.map { CChar(bitPattern: $0) } + [0]
            return stat(cPath, &source)
        }
        if found != 0 {
            // Only a source that provably does not exist: not a permission or I/O problem.
            return errno == ENOENT || errno == ENOTDIR ? ("source missing", entry.uri, st) : nil
        }
        return Int(source.st_mtim.tv_sec) != entry.mtime ? ("source modified", entry.uri, st) : nil
    }
}
