// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog
/// A change in the inbox, as a watcher reports it. Paths are relative to the inbox.
enum FolderChange: Sendable, Hashable {
    /// The file was closed after writing or renamed in: it may be complete.
    case candidate(String)
    /// The file or folder was deleted or renamed away.
    case removed(String)
    /// A folder appeared (created or renamed in): the caller watches it if the layout wants it,
    /// then scans it for files that arrived before the watch did.
    case folderAppeared(String)
    /// Events may have been lost (queue overflow): scan the whole inbox again.
    case rescan
    /// The inbox itself was deleted or moved away.
    case inboxGone
}

/// The source of ``FolderChange``s: inotify, or a periodic scan for file systems without events.
/// Used by one thread only (the watch loop).
protocol InboxWatching: AnyObject {
    /// A descriptor to wait on for readability, or nil when only ``nextWake`` matters.
    var descriptor: Int32? { get }
    /// When ``changes(now:)`` will next have something without the descriptor becoming
    /// readable (the next poll), or nil.
    var nextWake: Double? { get }
    /// `inotify`, `polling every 2 s`: for the start-up line.
    var modeDescription: String { get }
    /// Starts watching the folder at `relativePath` ("" is the inbox) if not already; returns a
    /// reason when it cannot (the watch limit is reached, the folder vanished).
    func watch(folder relativePath: String) -> String?
    /// What happened since the last call (never blocks).
    func changes(now: Double) -> [FolderChange]
}
