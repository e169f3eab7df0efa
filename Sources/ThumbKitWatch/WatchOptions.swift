// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog
/// How a watch session runs (the ingest itself is set up in ``InboxIngestor``).
public struct WatchOptions: Sendable, Hashable {
    /// Seconds a file's size and modification time must stay the same before it is taken
    /// (`--settle`, default 1; fractions allowed; 0 takes files as soon as they are closed).
    public var settleSeconds: Double
    /// Scan every this many seconds instead of using inotify (`--poll`); nil uses inotify.
    public var pollSeconds: Double?
    /// Files processed at once (`-j`).
    public var jobs: Int
    /// Process what is in the inbox now, then stop (`--once`).
    public var once: Bool
    /// The most files waiting (settling or ready) at once. Past it, new files are left for a
    /// rescan once half of the waiting ones are done, so memory does not grow with the number
    /// of files dropped in.
    public var maxPending: Int
    /// Absolute paths the watcher leaves alone without a notice if they are inside the inbox
    /// (the catalog and its `-wal`/`-shm` files, the output folder, the `--move-done` folder).
    public var ownPaths: [String]

    public init(
        settleSeconds: Double = 1, pollSeconds: Double? = nil, jobs: Int = 1, once: Bool = false,
        maxPending: Int = 4096, ownPaths: [String] = []
    ) {
        precondition(
            settleSeconds >= 0 && settleSeconds.isFinite, "The settle time must be a finite, non-negative number.")
        precondition(pollSeconds.map { $0 > 0 && $0.isFinite } ?? true, "The poll interval must be positive.")
        precondition(jobs >= 1, "At least one job.")
        precondition(maxPending >= 1, "At least one pending file.")
        self.settleSeconds = settleSeconds
        self.pollSeconds = pollSeconds
        self.jobs = jobs
        self.once = once
        self.maxPending = maxPending
        self.ownPaths = ownPaths
    }

    /// `1`, `0.2`, `2.5`: seconds without trailing zeros, for messages.
    static func formatSeconds(_ seconds: Double) -> String {
        if seconds == seconds.rounded(), abs(seconds) < 1e9 { return String(Int(seconds)) }
        var text = String(format: "%.3f", seconds)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
