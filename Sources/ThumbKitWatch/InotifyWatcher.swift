// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// Linux inotify over the inbox's folders (the inbox, `bugs`, `foods` and each
/// `foods/<category>`, as ``InboxLayout/isWatchedFolder(_:)`` says; never `.rejected`).
///
/// Files count as candidates when closed after writing (`IN_CLOSE_WRITE`) or renamed in
/// (`IN_MOVED_TO`); a file that is merely created is not complete yet. New folders are reported
/// so the caller can watch and scan them; folders renamed away or deleted are forgotten. A queue
/// overflow (`IN_Q_OVERFLOW`) becomes ``FolderChange/rescan``.
///
/// Not thread-safe: the watch loop is its only user.
final class InotifyWatcher: InboxWatching {
    /// The events each folder is watched for.
    static let mask: UInt32 = {
        let bits: [Int32] = [
            IN_CLOSE_WRITE, IN_MOVED_TO, IN_CREATE, IN_DELETE_SELF, IN_MOVED_FROM, IN_Q_OVERFLOW, IN_DELETE,
            IN_MOVE_SELF, IN_ONLYDIR, IN_DONT_FOLLOW, IN_EXCL_UNLINK,
        ]
        return bits.reduce(0) { $0 | UInt32(bitPattern: $1) }
    }()

    /// The inbox folder (as given, without a trailing `/`).
    let root: String
    private let fd: Int32
    private var folders: [Int32: String] = [:]
    /// By the bytes of the folder's path (``FilePathKey``): `foods/Café` in NFC and in NFD are
    /// two folders, each with its own watch.
    private var watches: [FilePathKey: Int32] = [:]
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Opens an inotify instance (non-blocking, close-on-exec). Watches nothing until
    /// ``watch(folder:)``.
    init(root: String) throws(WatchError) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            throw WatchError.inotify(path: root, reason: "inotify_init1: \(WatchError.errnoText())")
        }
        self.root = root
        self.fd = fd
    }

    deinit { close(fd) }

    var descriptor: Int32? { fd }
    var nextWake: Double? { nil }
    var modeDescription: String { "inotify" }

    /// Folders watched now (for tests and the start-up line).
    var watchedFolders: [String] { watches.keys.map(\.path).sorted() }

    func watch(folder relativePath: String) -> String? {
        let key = FilePathKey(relativePath)
        if watches[key] != nil { return nil }
        let full = relativePath.isEmpty ? root : root + "/" + relativePath
        let wd = PathBytes.withCString(full) { inotify_add_watch(fd, $0, Self.mask) }
        guard wd >= 0 else {
            if errno == ENOSPC {
                return
                    "cannot watch: the inotify watch limit is reached (raise fs.inotify.max_user_watches, or use --poll)"
            }
            return "cannot watch: \(WatchError.errnoText())"
        }
        if let old = folders[wd] { watches[FilePathKey(old)] = nil }
        folders[wd] = relativePath
        watches[key] = wd
        return nil
    }

    func changes(now: Double) -> [FolderChange] {
        var changes: [FolderChange] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                break  // EAGAIN: drained.
            }
            if count == 0 { break }
            let parsed = buffer.withUnsafeBytes { InotifyEvent.parse(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            for event in parsed.events { translate(event, into: &changes) }
            // A name that is not UTF-8 is dropped by the parse: a rescan finds it and ingests it.
            if parsed.truncated || parsed.invalidNames > 0 { changes.append(.rescan) }
        }
        return changes
    }

    /// Turns one raw event into at most one change, keeping the folder map up to date.
    func translate(_ event: InotifyEvent, into changes: inout [FolderChange]) {
        if event.has(IN_Q_OVERFLOW) {
            changes.append(.rescan)
            return
        }
        guard let folder = folders[event.watch] else { return }
        if event.has(IN_IGNORED) {
            if folder.isEmpty { changes.append(.inboxGone) }  // The inbox's watch was removed.
            folders[event.watch] = nil
            if watches[FilePathKey(folder)] == event.watch { watches[FilePathKey(folder)] = nil }
            return
        }
        if event.name.isEmpty {
            if event.has(IN_DELETE_SELF | IN_MOVE_SELF) {
                if folder.isEmpty { changes.append(.inboxGone) } else { forget(folder: folder) }
            }
            return
        }
        let path = folder.isEmpty ? event.name : folder + "/" + event.name
        if event.has(IN_ISDIR) {
            if event.has(IN_CREATE | IN_MOVED_TO) {
                changes.append(.folderAppeared(path))
            } else if event.has(IN_MOVED_FROM | IN_DELETE) {
                forget(folder: path)
                changes.append(.removed(path))
            }
        } else if event.has(IN_CLOSE_WRITE | IN_MOVED_TO) {
            changes.append(.candidate(path))
        } else if event.has(IN_MOVED_FROM | IN_DELETE) {
            changes.append(.removed(path))
        }
    }

    /// Stops watching `folder` and everything below it.
    private func forget(folder: String) {
        let folder = FilePathKey(folder)
        for (path, wd) in watches where path == folder || path.isInside(folder) {
            inotify_rm_watch(fd, wd)
            watches[path] = nil
            folders[wd] = nil
        }
    }
}
