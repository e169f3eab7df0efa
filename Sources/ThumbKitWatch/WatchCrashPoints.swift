// SPDX-License-Identifier: Apache-2.0
/// A seam in an ingest (``InboxIngestor``): the ingestor tells it each time a file reaches one
/// of the points where a crash leaves the most to recover, so that tests can stop the watcher
/// there and check that a restart ends as an uninterrupted run would.
///
/// ``NoWatchCrashPoints`` (nothing happens) unless set on ``InboxIngestor/crashPoints``: the
/// CLI does so only for its hidden `watch --_crash-at PHASE:N` (see `WatchKillPoint` in
/// ThumbKitCLI), which the kill tests in `Tests/ThumbKitCLITests/Commands/WatchCommandTests.swift` pass
/// to the real binary. Nothing reads the environment.
package protocol WatchCrashPoints: Sendable {
    /// Called by the ingestor when a file reaches `phase`, on the thread ingesting it.
    func reached(_ phase: IngestPhase)
}

/// The points of one ingest a ``WatchCrashPoints`` hears about, in the order they are reached.
package enum IngestPhase: String, Sendable, CaseIterable {
    /// The record and its `pending` row are committed (step 4).
    case committed
    /// The source has been moved by `--move-done` (step 5; not reached without it).
    case moved
    /// The outputs are built, the row is not yet `imported` (step 6): inside the transaction
    /// that records them and marks the row, just before the mark (after a failed build, once
    /// it failed).
    case built
}

/// No crash points: the default.
package struct NoWatchCrashPoints: WatchCrashPoints {
    package init() {}

    package func reached(_ phase: IngestPhase) {}
}
