// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog
/// The files waiting to be complete, keyed by the bytes of their path (``FilePathKey``): a bounded set, so memory does not grow with
/// the number of files waiting in the inbox.
///
/// A path enters with ``touch(_:now:)`` when it was closed after writing, renamed in, or found by
/// a scan. From then on it is observed (``observe(_:stamp:now:)``) until its size and
/// modification time have stayed the same for `settleSeconds`; it is then *ready*, and waits in
/// arrival order (``readyPaths()``) until the caller takes it (``remove(_:)``). Any new event
/// for the path starts the wait again.
///
/// When the set is full a new path is refused and ``overflowed`` is set: the caller rescans the
/// inbox once there is room, which finds the refused files again. Times are seconds on any
/// monotonic clock.
public struct SettleTracker: Sendable {
    /// The outcome of one observation.
    public enum Verdict: Sendable, Hashable {
        /// Not stable for long enough yet; look again at ``SettleTracker/nextCheck()``.
        case waiting
        /// Stable for `settleSeconds`: ready to process, as it was when last observed.
        case ready(FileStamp)
        /// Gone (deleted, renamed away, or no longer a regular file); forgotten.
        case vanished
    }

    private struct Entry {
        /// The path (the dictionary key compares bytes, see ``FilePathKey``).
        var path: String
        /// The last stamp observed; nil until the first observation after a touch.
        var stamp: FileStamp?
        /// When `stamp` was first seen.
        var since: Double
        /// When to observe again (infinity once ready).
        var checkAt: Double
        var isReady: Bool
    }

    /// How long size and modification time must stay the same.
    public let settleSeconds: Double
    /// The most paths held at once.
    public let capacity: Int
    private var entries: [FilePathKey: Entry] = [:]
    /// Ready paths in the order they became ready; may hold stale paths, dropped lazily.
    private var readyQueue: [FilePathKey] = []
    /// Set when a path was refused because the set was full; cleared by ``clearOverflow()``.
    public private(set) var overflowed = false

    /// A tracker that holds at most `capacity` paths.
    public init(settleSeconds: Double, capacity: Int) {
        precondition(
            settleSeconds >= 0 && settleSeconds.isFinite, "The settle time must be a finite, non-negative number.")
        precondition(capacity > 0, "The capacity must be positive.")
        self.settleSeconds = settleSeconds
        self.capacity = capacity
    }

    /// Paths held (waiting or ready).
    public var count: Int { entries.count }

    /// Whether no path is held.
    public var isEmpty: Bool { entries.isEmpty }

    /// Whether `path` is held.
    public func contains(_ path: String) -> Bool { entries[FilePathKey(path)] != nil }

    /// Something happened to `path` (closed, renamed in, found by a scan): (re)start its wait.
    /// Returns false, and sets ``overflowed``, when the set is full and `path` is not in it.
    @discardableResult
    public mutating func touch(_ path: String, now: Double) -> Bool {
        let key = FilePathKey(path)
        if entries[key] == nil, entries.count >= capacity {
            overflowed = true
            return false
        }
        entries[key] = Entry(path: path, stamp: nil, since: now, checkAt: now, isReady: false)
        return true
    }

    /// Forgets `path` (taken for processing, or gone).
    public mutating func remove(_ path: String) {
        entries[FilePathKey(path)] = nil
    }

    /// Forgets every path inside `folder` (a folder moved out of the inbox or deleted).
    public mutating func removeAll(under folder: String) {
        let folder = FilePathKey(folder.hasSuffix("/") ? String(folder.dropLast()) : folder)
        for key in entries.keys where key.isInside(folder) { entries[key] = nil }
    }

    /// Clears ``overflowed`` (call it when starting the rescan that makes up for it).
    public mutating func clearOverflow() {
        overflowed = false
    }

    /// The earliest time a waiting path is due to be observed, or nil when none waits.
    public func nextCheck() -> Double? {
        entries.values.lazy.filter { !$0.isReady }.map(\.checkAt).min()
    }

    /// Waiting paths due to be observed at `now`.
    public func duePaths(now: Double) -> [String] {
        entries.values.compactMap { !$0.isReady && $0.checkAt <= now ? $0.path : nil }
    }

    /// Records what `lstat` says about `path` now (nil: no regular file there).
    public mutating func observe(_ path: String, stamp: FileStamp?, now: Double) -> Verdict {
        let key = FilePathKey(path)
        guard var entry = entries[key] else { return .vanished }
        guard let stamp else {
            entries[key] = nil
            return .vanished
        }
        if let old = entry.stamp, old.isSameContent(as: stamp) {
            if now - entry.since >= settleSeconds { return markReady(key, entry, stamp) }
            entry.checkAt = entry.since + settleSeconds
        } else {
            entry.stamp = stamp
            entry.since = now
            if settleSeconds == 0 { return markReady(key, entry, stamp) }
            entry.checkAt = now + settleSeconds
        }
        entries[key] = entry
        return .waiting
    }

    private mutating func markReady(_ key: FilePathKey, _ entry: Entry, _ stamp: FileStamp) -> Verdict {
        var entry = entry
        entry.stamp = stamp
        entry.isReady = true
        entry.checkAt = .infinity
        entries[key] = entry
        readyQueue.append(key)
        return .ready(stamp)
    }

    /// Ready paths with their stamps, in the order they became ready.
    public mutating func readyPaths() -> [(path: String, stamp: FileStamp)] {
        var seen = Set<FilePathKey>()
        var kept: [FilePathKey] = []
        var result: [(path: String, stamp: FileStamp)] = []
        for key in readyQueue where seen.insert(key).inserted {
            guard let entry = entries[key], entry.isReady, let stamp = entry.stamp else { continue }
            kept.append(key)
            result.append((entry.path, stamp))
        }
        readyQueue = kept
        return result
    }
}
