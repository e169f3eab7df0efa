// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reading sources and writing outputs safely: sources are only ever opened read-only, and an
/// output appears under its name only once it is complete (written to a temporary name in the
/// same folder, flushed, then renamed into place).
package enum FileIO {
    /// Reads a whole file, refusing it before reading when it is larger than `maxBytes`.
    /// Only regular files are read: a folder, FIFO, socket or device is refused before any read
    /// (opening is non-blocking, so a FIFO with no writer cannot stall the batch).
    package static func read(_ path: String, maxBytes: Int = ImageLimits.defaultMaxFileBytes) throws(DecodeError)
        -> [UInt8]
    {
        try read(path, maxBytes: maxBytes, prefix: nil)
    }

    /// The first `count` bytes of a file (fewer when it is shorter), with the checks of
    /// ``read(_:maxBytes:)`` but no size limit: enough to tell its format.
    public static func readPrefix(_ path: String, count: Int) throws(DecodeError) -> [UInt8] {
        try read(path, maxBytes: .max, prefix: count)
    }

    private static func read(_ path: String, maxBytes: Int, prefix: Int?) throws(DecodeError) -> [UInt8] {
        let fd = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        if fd < 0 { throw .unreadable(path: path, reason: errnoText()) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) != 0 { throw .unreadable(path: path, reason: errnoText()) }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw .unreadable(path: path, reason: "is a directory") }
        if (st.st_mode & S_IFMT) != S_IFREG { throw .unreadable(path: path, reason: "not a regular file") }
        let size = min(Int(st.st_size), prefix ?? .max)
        if size == 0 { throw .empty(path: path) }
        if size > maxBytes {
            throw .overLimit(path: path, reason: "file is \(size) bytes, over the limit of \(maxBytes) bytes")
        }
        var failure: String?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var done = 0
            while done < size {
                let n = Glibc.read(fd, buffer.baseAddress! + done, size - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errnoText()
                    break
                }
                if n == 0 { break }  // The file shrank while we read it.
                done += n
            }
            count = done
        }
        if let failure { throw .unreadable(path: path, reason: failure) }
        if bytes.isEmpty { throw .empty(path: path) }
        return bytes
    }

    /// Writes `bytes` to `path` atomically: a temporary dot-file in the same folder, flushed to
    /// disk when `durable`, then renamed over `path`. On any failure the temporary file is
    /// removed and nothing appears under `path`. Missing parent folders are created.
    ///
    /// Either way a reader sees the old file or the whole new one, never a partial one. `durable`
    /// adds an fsync before the rename, so the new content also survives a power cut; it costs a
    /// blocking disk flush per file (about 2 ms each on this machine's ext4, and it slows the
    /// rename that follows), which is worth it for records, not for thumbnails that can be
    /// rebuilt from their sources.
    package static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(EncodeError) {
        try writeAtomically(bytes, to: path, durable: durable, faults: NoWriteFaults())
    }

    /// ``writeAtomically(_:to:durable:)`` with `faults` deciding how much of each write reaches
    /// the disk (``SimulatedDiskFull`` in tests and `thumb --_disk-full-after`).
    package static func writeAtomically(
        _ bytes: [UInt8], to path: String, durable: Bool = true, faults: some FileWriteFaults
    ) throws(EncodeError) {
        let temp = try writeTemporary(bytes, for: path, durable: durable, faults: faults)
        if PathBytes.withCString(temp, { t in PathBytes.withCString(path) { rename(t, $0) } }) != 0 {
            let failure = errnoText()
            _ = PathBytes.withCString(temp) { unlink($0) }
            throw .write(path: path, reason: failure)
        }
    }

    /// Writes `bytes` to a fresh temporary dot-file (``TemporaryFileName``) beside `path`,
    /// flushed to disk when `durable`, creating missing parent folders; returns its path. On any
    /// failure the temporary file is removed. The caller renames or links it into place.
    static func writeTemporary(
        _ bytes: [UInt8], for path: String, durable: Bool, faults: some FileWriteFaults
    ) throws(EncodeError) -> String {
        // Split by hand, not with URL: the path may stand for bytes that are not UTF-8 (PathBytes).
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        if let reason = makeFolders(dir) {
            throw .write(path: path, reason: "cannot create folder \(dir): \(reason)")
        }
        let temp = dir + "/" + TemporaryFileName.make(for: name)
        let fd = PathBytes.withCString(temp) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        if fd < 0 { throw .write(path: path, reason: errnoText()) }
        var failure: String?
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                // A simulated full disk, when the caller passes one (see FileWriteFaults).
                let allowed = faults.allowance(raw.count - done, path: temp)
                if allowed == 0 {
                    failure = String(cString: strerror(ENOSPC)).lowercased()
                    return
                }
                let n = write(fd, raw.baseAddress! + done, allowed)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errnoText()
                    return
                }
                done += n
            }
        }
        if durable && failure == nil && fsync(fd) != 0 { failure = errnoText() }
        if close(fd) != 0 && failure == nil { failure = errnoText() }
        if let failure {
            _ = PathBytes.withCString(temp) { unlink($0) }
            throw .write(path: path, reason: failure)
        }
        return temp
    }

    /// True when both paths name the same existing file (same device and inode).
    package static func isSameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat()
        var sb = stat()
        guard PathBytes.withCString(a, { stat($0, &sa) }) == 0, PathBytes.withCString(b, { stat($0, &sb) }) == 0
        else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    /// Creates `dir` and its missing parents (as `mkdir -p`); nil on success, else the reason.
    /// `dir` is a ``PathBytes`` string.
    package static func makeFolders(_ dir: String) -> String? {
        var st = stat()
        if PathBytes.withCString(dir, { stat($0, &st) }) == 0 {
            return (st.st_mode & S_IFMT) == S_IFDIR ? nil : "a file is in the way"
        }
        if let slash = dir.lastIndex(of: "/"), slash != dir.startIndex {
            if let reason = makeFolders(String(dir[..<slash])) { return reason }
        }
        if PathBytes.withCString(dir, { mkdir($0, 0o755) }) != 0 && errno != EEXIST { return errnoText() }
        return nil
    }

    /// The current `errno` as text, lower-case.
    static func errnoText() -> String {
        String(cString: strerror(errno)).lowercased()
    }
}
