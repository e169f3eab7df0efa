// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// What `lstat` says about a file, enough to tell whether it changed: which file it is
/// (device, inode), its size and its modification and change times to the nanosecond.
///
/// The change time (ctime) cannot be set by `touch` or `cp -p`, so a file rewritten with an old
/// modification time still gets a new stamp.
public struct FileStamp: Sendable, Hashable {
    /// Device of the file system.
    public var device: UInt64
    /// Inode number.
    public var inode: UInt64
    /// Size in bytes.
    public var size: Int64
    /// Modification time, nanoseconds since 1970.
    public var modified: Int64
    /// Status change time, nanoseconds since 1970.
    public var changed: Int64

    public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    /// The stamp of the regular file at `path`, without following a symbolic link; nil when
    /// there is no such file or it is not a regular file (a folder, a link, a device).
    public static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard PathBytes.withCString(path, { lstat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return nil
        }
        return FileStamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }

    /// Whether size and modification time are the same (what "stable" means while settling).
    public func isSameContent(as other: FileStamp) -> Bool {
        device == other.device && inode == other.inode && size == other.size && modified == other.modified
    }
}

/// Which folder a path names: its device and inode, from `stat` (links followed). Two paths
/// name the same folder exactly when their identities are equal, whatever links, `..` or bind
/// mounts lie between them.
struct FolderIdentity: Sendable, Hashable {
    /// Device of the file system.
    var device: UInt64
    /// Inode number.
    var inode: UInt64

    /// The identity of the folder at `path`; nil when there is no folder there.
    static func of(_ path: String) -> FolderIdentity? {
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            return nil
        }
        return FolderIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
