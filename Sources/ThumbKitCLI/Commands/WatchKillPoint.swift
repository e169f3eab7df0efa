// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitWatch

#if canImport(Glibc)
    import Glibc
#endif

/// The real binary's crash points, from the hidden `watch --_crash-at PHASE:N`: the watcher kills
/// itself with SIGKILL when the N-th file reaches PHASE (`committed`, `moved` or `built`; see
/// ``IngestPhase``), so the kill tests (`WatchCommandTests`) can crash a real process at an exact
/// point of an ingest and check that a restart ends as an uninterrupted run would.
final class WatchKillPoint: WatchCrashPoints {
    let phase: IngestPhase
    let count: Int
    private let reachedCount = Locked(0)

    /// How many times ``phase`` has been reached so far.
    var timesReached: Int { reachedCount.withLock { $0 } }

    init(phase: IngestPhase, count: Int) {
        precondition(count > 0, "The N-th file counts from 1.")
        self.phase = phase
        self.count = count
    }

    /// `PHASE:N`, as the option takes it; nil when malformed.
    convenience init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let phase = IngestPhase(rawValue: String(parts[0])), let count = Int(parts[1]),
            count > 0
        else { return nil }
        self.init(phase: phase, count: count)
    }

    func reached(_ phase: IngestPhase) {
        guard phase == self.phase else { return }
        let n = reachedCount.withLock { value in
            value += 1
            return value
        }
        if n == count { kill(getpid(), SIGKILL) }
    }
}
