// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog
/// The fallback for file systems without inotify events (network and FUSE mounts): a full scan
/// of the inbox every `interval` seconds. Scanned files are candidates; the settle time then
/// decides when they are complete.
final class PollingWatcher: InboxWatching {
    /// Seconds between scans; `.infinity` scans only once, at start (`--once`).
    let interval: Double
    private var nextScan: Double?

    /// Scans every `interval` seconds, the first time one interval after `start` (the watch loop
    /// scans once at start anyway).
    init(interval: Double, start: Double) {
        precondition(interval > 0, "The poll interval must be positive.")
        self.interval = interval
        self.nextScan = interval.isFinite ? start + interval : nil
    }

    var descriptor: Int32? { nil }
    var nextWake: Double? { nextScan }

    var modeDescription: String {
        interval.isFinite ? "polling every \(WatchOptions.formatSeconds(interval)) s" : "one scan"
    }

    func watch(folder relativePath: String) -> String? { nil }

    func changes(now: Double) -> [FolderChange] {
        guard let due = nextScan, now >= due else { return [] }
        nextScan = now + interval
        return [.rescan]
    }
}
