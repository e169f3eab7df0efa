// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// One watcher per inbox: an exclusive `flock` on `<inbox>/.thumbkit-watch.lock`, which holds
/// the owner's pid for the message a second watcher prints.
///
/// The kernel drops an `flock` when its owner dies, however it dies (`kill -9` included), so a
/// lock left behind by a killed watcher is taken over at once; there is no stale-pid guessing.
/// The file itself is never deleted: deleting it would let two watchers lock two different
/// files of the same name.
public final class WatchLock: Sendable {
    /// The lock file.
    public let path: String
    private let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// Takes the lock of the inbox at `inbox`, or fails at once.
    ///
    /// - Throws: `WatchError.busy` (`another thumbkit watch (pid 4242) is already watching this
    ///   folder`) when a live watcher holds it; `.io` when the file cannot be opened.
    public static func acquire(inbox: String) throws(WatchError) -> WatchLock {
        let path = (inbox as NSString).appendingPathComponent(InboxLayout.lockFileName)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw .io(path: path, reason: "cannot open lock file: \(WatchError.errnoText())") }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let code = errno
            let owner = readOwner(fd)
            close(fd)
            guard code == EWOULDBLOCK else {
                throw .io(path: path, reason: "cannot lock: \(WatchError.errnoText(code))")
            }
            let who = owner.map { "(pid \($0)) " } ?? ""
            throw .busy(
                path: inbox, reason: "another thumbkit watch \(who)is already watching this folder (lock file \(path))")
        }
        let text = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) != 0 || pwrite(fd, text, text.count, 0) != text.count {
            let reason = WatchError.errnoText()
            close(fd)
            throw .io(path: path, reason: "cannot write lock file: \(reason)")
        }
        return WatchLock(path: path, fd: fd)
    }

    /// The pid written in the lock file, if it reads as one.
    private static func readOwner(_ fd: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = pread(fd, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text)
    }
}
