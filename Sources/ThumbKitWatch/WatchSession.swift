// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import ThumbKit
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// The watch loop of one inbox: changes in (inotify or polling), settled files out to at most
/// `jobs` workers running ``InboxIngestor/process(_:)``, one event line per thing done.
///
/// All the state below lives on the thread that calls ``run()``; workers and signal handlers
/// reach it only through ``WatchControl``. The work is bounded: at most `jobs` files in flight
/// and `maxPending` waiting (``SettleTracker``); files beyond that are found again by a rescan.
/// What does grow with the inbox is ``known``: one stamp per processed file still sitting in the
/// inbox, so a rescan or a poll does not hash it again (about 100 bytes per file).
public final class WatchSession {
    /// What a session did, for the summary at the end.
    public struct Summary: Sendable, Hashable, Codable {
        /// Files that became or updated a record.
        public var ingested = 0
        /// Files whose bytes the catalog already had.
        public var skipped = 0
        /// Files moved to `.rejected/`.
        public var rejected = 0
        /// Files (or catalog operations) that failed without being the file's fault.
        public var failed = 0
        /// Sidecars that changed a rating.
        public var rated = 0
        /// Half-done ingests of an earlier watcher finished or undone.
        public var recovered = 0
        /// Whether the session stopped because the inbox itself disappeared.
        public var inboxGone = false

        public init() {}

        /// `12 ingested, 1 skipped, 2 rejected, 0 failed`.
        public var text: String {
            var line = "\(ingested) ingested, \(skipped) skipped, \(rejected) rejected, \(failed) failed"
            if rated > 0 { line += ", \(rated) rated" }
            if recovered > 0 { line += ", \(recovered) recovered" }
            return line
        }

        mutating func count(_ event: IngestEvent) {
            switch event.event {
            case .ingested: ingested += 1
            case .skipped: skipped += 1
            case .rejected: rejected += 1
            case .failed: failed += 1
            case .rated: rated += 1
            case .recovered: recovered += 1
            case .watching, .ignored, .stopping, .stopped: break
            }
        }
    }

    /// Two files of one record are never processed at once.
    private typealias Key = InboxLayout.Target

    let ingestor: InboxIngestor
    let options: WatchOptions
    let control: WatchControl
    private let log: @Sendable (IngestEvent) -> Void
    private let watcher: any InboxWatching
    private let scanner: InboxScanner
    private var tracker: SettleTracker
    /// Stamps of processed files still in the inbox (see the type's comment). Every per-file
    /// table is keyed by the bytes of the path (``FilePathKey``): two names that differ only in
    /// Unicode normalisation are two files.
    private(set) var known: [FilePathKey: FileStamp] = [:]
    private var inFlight: [FilePathKey: (key: Key?, stamp: FileStamp)] = [:]
    private var busy = Set<Key>()
    /// In-flight files that changed again meanwhile: taken again when done.
    private var dirty = Set<FilePathKey>()
    /// Paths already noticed as ignored (so a poll does not repeat the notice); bounded.
    private var noticed = Set<FilePathKey>()
    private let ownPrefixes: [String]
    private var summary = Summary()
    private var stopping = false
    /// The inbox's (device, inode) at start. The watcher's own open lock file pins the inbox's
    /// directory entry, so inotify never reports its removal: the loop compares this with a
    /// fresh `stat` of the inbox path at least once a second instead.
    private let inboxIdentity: FolderIdentity

    /// A session over `ingestor`'s inbox (which must exist; `bugs/` and `foods/` are created
    /// in it when missing).
    ///
    /// - Throws: `WatchError.inotify` when inotify cannot be set up (use `--poll`), `.io` when
    ///   the inbox is not a folder.
    public init(
        ingestor: InboxIngestor, options: WatchOptions, control: WatchControl,
        log: @escaping @Sendable (IngestEvent) -> Void
    ) throws(WatchError) {
        let root = ingestor.absoluteInbox
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), isFolder.boolValue else {
            throw .io(path: ingestor.inbox, reason: "no such folder")
        }
        for folder in [InboxLayout.bugsFolder, InboxLayout.foodsFolder] {
            try? FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        guard let identity = FolderIdentity.of(root) else { throw .io(path: ingestor.inbox, reason: "no such folder") }
        self.inboxIdentity = identity
        self.ingestor = ingestor
        self.options = options
        self.control = control
        self.log = log
        self.scanner = InboxScanner(root: root)
        self.tracker = SettleTracker(settleSeconds: options.settleSeconds, capacity: options.maxPending)
        if options.once {
            watcher = PollingWatcher(interval: .infinity, start: 0)
        } else if let poll = options.pollSeconds {
            watcher = PollingWatcher(interval: poll, start: Self.now())
        } else {
            watcher = try InotifyWatcher(root: root)
        }
        let prefix = root == "/" ? "/" : root + "/"
        ownPrefixes = options.ownPaths.flatMap { path -> [String] in
            let full = PathResolution.resolve(path, against: FileManager.default.currentDirectoryPath)
            guard full.hasPrefix(prefix) else { return [] }
            let relative = String(full.dropFirst(prefix.count))
            return [relative, relative + "-wal", relative + "-shm", relative + "-journal"]
        }
    }

    /// Seconds on the monotonic clock.
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Runs until stopped (``WatchControl/requestStop()``), until the inbox disappears, or with
    /// `once`, until everything that was in the inbox has been handled. Returns what it did.
    public func run() -> Summary {
        // Once per session: each ingest's build looks only at its own record's files.
        _ = try? ingestor.builder.removeStrayTemporaries()
        for event in ingestor.recoverPending() { emit(event) }
        for event in ingestor.repairRejectedNotes() { emit(event) }
        rescan(now: Self.now())
        let how = [
            watcher.modeDescription, "settle \(WatchOptions.formatSeconds(options.settleSeconds)) s",
            "\(options.jobs) job\(options.jobs == 1 ? "" : "s")",
        ]
        emit(IngestEvent(.watching, path: ingestor.inbox, reason: how.joined(separator: ", ")))
        while true {
            let now = Self.now()
            let (stop, completions) = control.take()
            for completion in completions { finish(completion, now: now) }
            if stop && !stopping {
                stopping = true
                let count = inFlight.count
                emit(IngestEvent(.stopping, reason: "finishing \(count) file\(count == 1 ? "" : "s") in flight"))
            }
            if stopping {
                if inFlight.isEmpty { break }
            } else {
                if FolderIdentity.of(ingestor.absoluteInbox) != inboxIdentity {
                    handle(.inboxGone, now: now)
                    continue
                }
                for change in watcher.changes(now: now) { handle(change, now: now) }
                if tracker.overflowed && tracker.count <= options.maxPending / 2 { rescan(now: now) }
                for path in tracker.duePaths(now: now) {
                    _ = tracker.observe(path, stamp: FileStamp.of(ingestor.absolute(path)), now: now)
                }
                dispatchReady()
                if options.once && tracker.isEmpty && inFlight.isEmpty && !tracker.overflowed { break }
            }
            wait(now: now)
        }
        emit(IngestEvent(.stopped, reason: summary.text))
        return summary
    }

    // MARK: Changes

    private func handle(_ change: FolderChange, now: Double) {
        switch change {
        case .candidate(let path):
            consider(path, now: now)
        case .removed(let path):
            tracker.remove(path)
            tracker.removeAll(under: path)
            let folder = FilePathKey(path)
            known[folder] = nil
            for key in known.keys where key.isInside(folder) { known[key] = nil }
        case .folderAppeared(let path):
            scan(path, now: now)
        case .rescan:
            rescan(now: now)
        case .inboxGone:
            guard !summary.inboxGone else { return }
            emit(IngestEvent(.failed, path: ingestor.inbox, reason: "the inbox was deleted or moved away"))
            summary.inboxGone = true
            control.requestStop()
        }
    }

    /// A file that may be complete: start (or, after a new event, restart) its settle wait,
    /// unless it is not ours, unchanged since it was processed, or being processed (then it is
    /// taken again after). A scan leaves a waiting file's clock alone: the observations
    /// already notice any change, and a poll as frequent as the settle time would otherwise
    /// never let it settle.
    private func consider(_ path: String, now: Double, fromScan: Bool = false) {
        if isOwn(path) { return }
        switch InboxLayout.classify(path) {
        case .image, .sidecar:
            if fromScan && tracker.contains(path) { return }
            let key = FilePathKey(path)
            if let stamp = known[key], FileStamp.of(ingestor.absolute(path)) == stamp { return }
            if inFlight[key] != nil {
                if !fromScan { dirty.insert(key) }  // A scan's news is checked at completion anyway.
                return
            }
            tracker.touch(path, now: now)  // When full, `overflowed` makes a later rescan find it.
        case .temporary, .hidden:
            return
        case .ignored(let reason):
            notice(path, reason: reason)
        }
    }

    private func rescan(now: Double) {
        tracker.clearOverflow()
        scan("", now: now)
    }

    /// Watches and walks `folder` (the inbox when ""), considering every file found.
    private func scan(_ folder: String, now: Double) {
        scanner.scan(folder) { visit in
            switch visit {
            case .folder(let path):
                if let reason = watcher.watch(folder: path) {
                    emit(IngestEvent(.failed, path: ingestor.shown(path), reason: reason))
                }
            case .file(let path):
                consider(path, now: now, fromScan: true)
            case .skipped(let path, let reason):
                if !isOwn(path) { notice(path, reason: reason) }
            }
        }
    }

    private func isOwn(_ path: String) -> Bool {
        ownPrefixes.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    /// One `ignored` notice per path per session (at most 10 000 remembered).
    private func notice(_ path: String, reason: String) {
        let key = FilePathKey(path)
        guard !noticed.contains(key) else { return }
        if noticed.count < 10_000 { noticed.insert(key) }
        emit(IngestEvent(.ignored, path: ingestor.shown(path), reason: reason))
    }

    // MARK: Work

    private static func key(for path: String) -> Key? {
        switch InboxLayout.classify(path) {
        case .image(let target): return target
        case .sidecar(let title): return .bug(title: title)
        case .temporary, .hidden, .ignored: return nil
        }
    }

    /// Hands ready files to workers, oldest first, while fewer than `jobs` are in flight and
    /// no other file of the same record is.
    private func dispatchReady() {
        guard inFlight.count < options.jobs else { return }
        for (path, stamp) in tracker.readyPaths() {
            guard inFlight.count < options.jobs else { break }
            let key = Self.key(for: path)
            if let key, busy.contains(key) { continue }
            tracker.remove(path)
            inFlight[FilePathKey(path)] = (key, stamp)
            if let key { busy.insert(key) }
            let ingestor = self.ingestor
            let control = self.control
            DispatchQueue.global(qos: .utility).async {
                control.complete(WatchControl.Completion(path: path, events: ingestor.process(path)))
            }
        }
    }

    private func finish(_ completion: WatchControl.Completion, now: Double) {
        let path = FilePathKey(completion.path)
        guard let taken = inFlight.removeValue(forKey: path) else { return }
        if let key = taken.key { busy.remove(key) }
        for event in completion.events { emit(event) }
        let stamp = FileStamp.of(ingestor.absolute(completion.path))
        if dirty.remove(path) != nil || (stamp != nil && stamp != taken.stamp) {
            known[path] = nil
            if stamp != nil && !stopping { tracker.touch(completion.path, now: now) }
        } else {
            known[path] = stamp
        }
    }

    private func emit(_ event: IngestEvent) {
        summary.count(event)
        log(event)
    }

    /// Sleeps until the watcher has events, a worker or signal wakes the loop, or the next file
    /// is due to be observed (or the next poll).
    private func wait(now: Double) {
        // At most a second, so a deleted inbox is noticed (see `inboxIdentity`).
        let deadline = stopping ? nil : [tracker.nextCheck(), watcher.nextWake, now + 1].compactMap { $0 }.min()
        let timeout: Int32 = deadline.map { Int32(min(60_000, max(0, (($0 - now) * 1000).rounded(.up)))) } ?? -1
        var fds = [pollfd(fd: control.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        if !stopping, let fd = watcher.descriptor { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        _ = poll(&fds, nfds_t(fds.count), timeout)
        control.drainWakeups()
    }
}
