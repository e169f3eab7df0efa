// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

#if canImport(Glibc)
    import Glibc
#endif

/// The folder that `local:///path` sources resolve under (`serve --root`). A path can never leave
/// it: a `..` component, a NUL byte, or a symbolic link whose target lies outside the root is
/// `notFound`, decided before the file is opened. Links that stay inside the root are followed.
///
/// How: the path is resolved once with `realpath` and must then lie under the root's own real
/// path; the result, which has no links left, is opened component by component from a descriptor
/// of the root with `O_NOFOLLOW`, so a link swapped in between the check and the open is refused
/// rather than followed.
package struct SourceRoot: Sendable {
    /// Why a source cannot be served.
    package enum Failure: Error, Equatable, Sendable {
        /// No such file under the root, or one the root does not allow (answer 404).
        case notFound
        /// A file that exists but is over the size limit or not a regular file (answer 422).
        case unusable(String)
    }

    /// The root's real path, without a trailing slash ("/" for the root folder itself).
    package let path: String

    /// `root` must be an existing folder.
    package init(_ root: String) throws(Failure) {
        guard let real = Self.realPath(root) else { throw .unusable("\(root): no such folder") }
        var info = stat()
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .unusable("\(root): not a folder")
        }
        path = real
    }

    /// The components of `relative` below the root once links are resolved, or nil when the
    /// path is not allowed (see the type's comment). `relative` is the source path as the URL
    /// gave it, decoded: `/a/b.jpg` or `a/b.jpg`.
    package func components(of relative: String) -> [String]? {
        guard !relative.utf8.contains(0) else { return nil }
        let parts = relative.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard !parts.isEmpty, !parts.contains("..") else { return nil }
        let joined = (path == "/" ? "" : path) + "/" + parts.joined(separator: "/")
        guard let real = Self.realPath(joined) else { return nil }
        let prefix = path == "/" ? "/" : path + "/"
        guard real.hasPrefix(prefix), real.count > prefix.count else { return nil }
        return real.dropFirst(prefix.count).split(separator: "/").map(String.init)
    }

    /// Opens the source at `relative` for reading, or throws why not.
    package func open(_ relative: String) throws(Failure) -> OpenedSource {
        guard let parts = components(of: relative) else { throw .notFound }
        var dir = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { throw .notFound }
        for (index, part) in parts.enumerated() {
            let last = index == parts.count - 1
            // O_NONBLOCK: a FIFO planted under the root must not stall the server thread.
            let flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | (last ? O_NONBLOCK : O_DIRECTORY)
            let next = openat(dir, part, flags)
            close(dir)
            guard next >= 0 else { throw .notFound }
            dir = next
        }
        var info = stat()
        guard fstat(dir, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(dir)
            throw .notFound
        }
        return OpenedSource(descriptor: dir, info: info, path: parts.joined(separator: "/"))
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// A source file opened under a ``SourceRoot``: its descriptor stays open until this is released,
/// so what is hashed and what is decoded are the same file even if the name is replaced.
package final class OpenedSource: Sendable {
    /// The open descriptor (read-only).
    private let descriptor: Int32
    /// Its path below the root, links resolved (for messages: never the absolute path).
    package let path: String
    /// Size in bytes.
    package let size: Int
    /// What identifies this version of the file without reading it: device, inode, size and the
    /// modification and change times in nanoseconds.
    package let identity: String

    init(descriptor: Int32, info: stat, path: String) {
        self.descriptor = descriptor
        self.path = path
        size = Int(info.st_size)
        let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let ctime = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        identity = "\(info.st_dev):\(info.st_ino):\(info.st_size):\(mtime):\(ctime)"
    }

    deinit { close(descriptor) }

    /// The whole file, refused before reading when it is larger than `maxBytes`.
    package func read(maxBytes: Int) throws(SourceRoot.Failure) -> [UInt8] {
        if size == 0 { throw .unusable("\(path): file is empty") }
        if size > maxBytes { throw .unusable("\(path): file is \(size) bytes, over the limit of \(maxBytes) bytes") }
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var done = 0
            while done < size {
                let n = pread(descriptor, buffer.baseAddress! + done, size - done, off_t(done))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    failed = n < 0
                    break
                }
                done += n
            }
            count = done
        }
        if failed || bytes.count != size { throw .unusable("\(path): cannot be read in full") }
        return bytes
    }
}
