// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// The layout of a freedesktop.org thumbnail cache: `<root>/<size>/<md5>.png` for thumbnails and
/// `<root>/fail/<program>/<md5>.png` for failure entries, where `<md5>` is the lower-case hex
/// MD5 of the source's `file://` URI.
///
/// The root comes from the caller (the CLI reads `$XDG_CACHE_HOME` and `$HOME`, see
/// ``root(xdgCacheHome:home:)``); nothing here reads the environment.
public struct ThumbnailCache: Sendable, Hashable {
    /// The cache root, such as `/home/me/.cache/thumbnails`.
    public var root: String
    /// This program's failure folder under `fail/`: `thumbkit-<version>`.
    public var failFolder: String

    /// A cache at `root` whose failure entries go to `fail/thumbkit-<version>`.
    public init(root: String, version: String) {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.failFolder = "thumbkit-\(version)"
    }

    /// `$XDG_CACHE_HOME/thumbnails` when that variable is set to an absolute path (the base
    /// directory specification ignores relative ones), else `$HOME/.cache/thumbnails`.
    public static func root(xdgCacheHome: String?, home: String) -> String {
        if let base = xdgCacheHome, base.hasPrefix("/") { return base + "/thumbnails" }
        return home + "/.cache/thumbnails"
    }

    /// The cache file name of `uri`: its MD5 in lower-case hex plus `.png`.
    public static func fileName(forURI uri: String) -> String { MD5.hex(uri) + ".png" }

    /// The folder of `size`'s thumbnails.
    public func folder(for size: ThumbnailSize) -> String { root + "/" + size.folder }

    /// This program's failure folder.
    public var failDirectory: String { root + "/fail/" + failFolder }

    /// Where the `size` thumbnail of `uri` lives.
    public func path(forURI uri: String, size: ThumbnailSize) -> String {
        folder(for: size) + "/" + Self.fileName(forURI: uri)
    }

    /// Where this program's failure entry for `uri` lives.
    public func failurePath(forURI uri: String) -> String {
        failDirectory + "/" + Self.fileName(forURI: uri)
    }

    /// Creates `directory` and any missing parent with mode 0700 (existing folders are left as
    /// they are).
    static func makeDirectory(_ directory: String) throws(EncodeError) {
        var st = stat()
        if stat(directory, &st) == 0 {
            if (st.st_mode & S_IFMT) == S_IFDIR { return }
            throw .write(path: directory, reason: "exists and is not a folder")
        }
        let parent = (directory as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != directory { try makeDirectory(parent) }
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw .write(path: directory, reason: String(cString: strerror(errno)).lowercased())
        }
    }

    /// Writes `bytes` to `path` as a 0600 file: first under a temporary name in the same folder
    /// (created 0700 when missing), then renamed into place, so a reader sees the old file or the
    /// new one, never part of one.
    static func writeFile(_ bytes: [UInt8], to path: String) throws(EncodeError) {
        let directory = (path as NSString).deletingLastPathComponent
        try makeDirectory(directory)
        let name = (path as NSString).lastPathComponent
        let temp = directory + "/." + name + ".thumbkit-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 { throw .write(path: path, reason: String(cString: strerror(errno)).lowercased()) }
        var failure: String?
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno)).lowercased()
                    return
                }
                offset += n
            }
        }
        // The umask cannot widen 0600, but an inherited ACL default could: state it.
        if failure == nil && fchmod(fd, 0o600) != 0 { failure = String(cString: strerror(errno)).lowercased() }
        if close(fd) != 0 && failure == nil { failure = String(cString: strerror(errno)).lowercased() }
        if failure == nil && rename(temp, path) != 0 { failure = String(cString: strerror(errno)).lowercased() }
        if let failure {
            unlink(temp)  // our own temporary name, created above with O_EXCL
            throw .write(path: path, reason: failure)
        }
    }
}
