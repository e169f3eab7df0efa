// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog
@testable import ThumbKitWatch

struct SettleTrackerTests {
    private func stamp(size: Int64, modified: Int64 = 100, inode: UInt64 = 7) -> FileStamp {
        FileStamp(device: 1, inode: inode, size: size, modified: modified, changed: modified)
    }

    /// Observes `path` and returns the verdict (`#expect` cannot call mutating methods).
    private func see(
        _ tracker: inout SettleTracker, _ path: String, _ stamp: FileStamp?, at now: Double
    ) -> SettleTracker.Verdict {
        tracker.observe(path, stamp: stamp, now: now)
    }

    @Test func aFileIsReadyOnlyOnceUnchangedForTheSettleTime() {
        var tracker = SettleTracker(settleSeconds: 1, capacity: 10)
        tracker.touch("bugs/a.jpg", now: 0)
        #expect(tracker.duePaths(now: 0) == ["bugs/a.jpg"])
        let first = see(&tracker, "bugs/a.jpg", stamp(size: 10), at: 0)
        #expect(first == .waiting)
        #expect(tracker.nextCheck() == 1)
        #expect(tracker.duePaths(now: 0.5).isEmpty)
        let early = see(&tracker, "bugs/a.jpg", stamp(size: 10), at: 0.5)
        #expect(early == .waiting)
        let settled = see(&tracker, "bugs/a.jpg", stamp(size: 10), at: 1)
        #expect(settled == .ready(stamp(size: 10)))
        let ready = tracker.readyPaths()
        #expect(ready.map(\.path) == ["bugs/a.jpg"])
        #expect(tracker.nextCheck() == nil)
    }

    @Test func aChangeInSizeOrModificationTimeRestartsTheWait() {
        var tracker = SettleTracker(settleSeconds: 1, capacity: 10)
        tracker.touch("a.jpg", now: 0)
        _ = see(&tracker, "a.jpg", stamp(size: 10), at: 0)
        let grew = see(&tracker, "a.jpg", stamp(size: 20), at: 0.9)
        #expect(grew == .waiting)
        let notYet = see(&tracker, "a.jpg", stamp(size: 20), at: 1.5)
        #expect(notYet == .waiting)
        let touched = see(&tracker, "a.jpg", stamp(size: 20, modified: 101), at: 1.9)
        #expect(touched == .waiting)
        let settled = see(&tracker, "a.jpg", stamp(size: 20, modified: 101), at: 2.9)
        #expect(settled == .ready(stamp(size: 20, modified: 101)))
    }

    @Test func aNewEventForAReadyFileStartsItsWaitAgain() {
        var tracker = SettleTracker(settleSeconds: 0.5, capacity: 10)
        tracker.touch("a.jpg", now: 0)
        _ = see(&tracker, "a.jpg", stamp(size: 1), at: 0)
        _ = see(&tracker, "a.jpg", stamp(size: 1), at: 0.5)
        tracker.touch("a.jpg", now: 0.6)
        let ready = tracker.readyPaths()
        #expect(ready.isEmpty)
        #expect(tracker.duePaths(now: 0.6) == ["a.jpg"])
    }

    @Test func aZeroSettleTimeTakesAFileAtItsFirstObservation() {
        var tracker = SettleTracker(settleSeconds: 0, capacity: 10)
        tracker.touch("a.jpg", now: 3)
        let verdict = see(&tracker, "a.jpg", stamp(size: 0), at: 3)
        #expect(verdict == .ready(stamp(size: 0)))
    }

    @Test func aFileThatDisappearsIsForgotten() {
        var tracker = SettleTracker(settleSeconds: 1, capacity: 10)
        tracker.touch("a.jpg", now: 0)
        let verdict = see(&tracker, "a.jpg", nil, at: 0)
        #expect(verdict == .vanished)
        #expect(tracker.isEmpty)
    }

    @Test func aReplacedFileIsNotTheSameEvenWithTheSameSizeAndTime() {
        var tracker = SettleTracker(settleSeconds: 1, capacity: 10)
        tracker.touch("a.jpg", now: 0)
        _ = see(&tracker, "a.jpg", stamp(size: 5, inode: 1), at: 0)
        let verdict = see(&tracker, "a.jpg", stamp(size: 5, inode: 2), at: 1)
        #expect(verdict == .waiting)
    }

    @Test func aFullTrackerRefusesNewPathsAndFlagsTheOverflow() {
        var tracker = SettleTracker(settleSeconds: 1, capacity: 2)
        let a = tracker.touch("a", now: 0)
        let b = tracker.touch("b", now: 0)
        #expect(a && b && !tracker.overflowed)
        let c = tracker.touch("c", now: 0)
        #expect(!c)
        #expect(tracker.overflowed)
        let again = tracker.touch("a", now: 1)  // A path already held is still accepted.
        #expect(again)
        #expect(tracker.count == 2)
        tracker.clearOverflow()
        #expect(!tracker.overflowed)
    }

    @Test func readyFilesComeOutInTheOrderTheyBecameReady() {
        var tracker = SettleTracker(settleSeconds: 0, capacity: 10)
        for (index, name) in ["c", "a", "b"].enumerated() {
            tracker.touch(name, now: Double(index))
            _ = see(&tracker, name, stamp(size: 1), at: Double(index))
        }
        let first = tracker.readyPaths()
        #expect(first.map(\.path) == ["c", "a", "b"])
        tracker.remove("a")
        let second = tracker.readyPaths()
        #expect(second.map(\.path) == ["c", "b"])
    }

    @Test func movingAFolderAwayForgetsEverythingInIt() {
        var tracker = SettleTracker(settleSeconds: 1, capacity: 10)
        tracker.touch("foods/Pasta/a.jpg", now: 0)
        tracker.touch("foods/Pasta/b.jpg", now: 0)
        tracker.touch("foods/Pastami/c.jpg", now: 0)
        tracker.removeAll(under: "foods/Pasta")
        #expect(tracker.count == 1)
        #expect(tracker.contains("foods/Pastami/c.jpg"))
    }
}
