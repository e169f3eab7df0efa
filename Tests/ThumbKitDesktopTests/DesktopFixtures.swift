// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitDesktop

/// Temporary source folders and caches for the desktop tests.
struct DesktopFixture {
    let root: URL
    var sources: String { root.path + "/src" }
    var cacheHome: String { root.path + "/cache" }
    var cache: ThumbnailCache { ThumbnailCache(root: cacheHome + "/thumbnails", version: "test") }

    init(_ label: String = "tk-xdg") throws {
        root = try TestBinary.temporaryDirectory(label)
        try FileManager.default.createDirectory(atPath: root.path + "/src", withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    /// Writes `bytes` to `src/<name>` and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = sources + "/" + name
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func thumbnailer(_ sizes: [ThumbnailSize] = ThumbnailSize.defaults) -> DesktopThumbnailer {
        DesktopThumbnailer(cache: cache, sizes: sizes, software: "thumbkit test", workingDirectory: root.path)
    }

    /// Sets the mtime of `path` (seconds since 1970) without changing anything else.
    static func setMTime(_ path: String, _ seconds: Int) {
        var times = [
            timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0),
        ]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    static func mode(_ path: String) -> mode_t {
        var st = stat()
        _ = lstat(path, &st)
        return st.st_mode & 0o777
    }

    static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    static func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }
}
