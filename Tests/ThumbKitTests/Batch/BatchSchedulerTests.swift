// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import ThumbKit

/// The batch scheduler's hand-out order: every file exactly once, largest first, and a heavy
/// file put back while another heavy one is in flight comes first once the slot is free.
struct BatchSchedulerTests {
    @Test func handsOutEveryFileOnceInOrder() {
        let scheduler = BatchScheduler(order: [2, 0, 1])
        #expect(scheduler.take() == 2)
        #expect(scheduler.take() == 0)
        #expect(scheduler.take() == 1)
        #expect(scheduler.take() == nil)
    }

    @Test func aSecondHeavyFileIsPutBackAndComesFirstOnceTheSlotIsFree() {
        let scheduler = BatchScheduler(order: [0, 1, 2, 3])
        #expect(scheduler.take() == 0)
        #expect(scheduler.claimHeavy(0))  // worker A: heavy file 0
        #expect(scheduler.take() == 1)
        #expect(!scheduler.claimHeavy(1))  // worker B: heavy file 1 must wait, so it is put back
        #expect(scheduler.take() == 2)  // B goes on with the next file
        scheduler.releaseHeavy()  // A is done with file 0
        #expect(scheduler.take() == 1)  // the put-back file comes before file 3
        #expect(scheduler.claimHeavy(1))
        #expect(scheduler.take() == 3)
        scheduler.releaseHeavy()
        #expect(scheduler.take() == nil)
    }

    @Test func largestFirstOrdersBySizeThenSubmission() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("batch-order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (name, size) in [("a", 10), ("b", 30), ("c", 10), ("d", 20)] {
            let url = folder.appendingPathComponent(name)
            try Data(repeating: 7, count: size).write(to: url)
            paths.append(url.path)
        }
        paths.append(folder.appendingPathComponent("missing").path)
        #expect(BatchScheduler.largestFirst(paths) == [1, 3, 0, 2, 4])
        #expect(BatchRunner.handOutOrder(paths, workers: 2, stopOnError: false) == [1, 3, 0, 2, 4])
        // One worker has nothing to balance, and "stop at the first failure" means the first listed.
        #expect(BatchRunner.handOutOrder(paths, workers: 1, stopOnError: false) == [0, 1, 2, 3, 4])
        #expect(BatchRunner.handOutOrder(paths, workers: 2, stopOnError: true) == [0, 1, 2, 3, 4])
    }

    /// Work already done for a record (the catalog build) cannot be put back: the claim waits
    /// for the heavy slot even though other files are waiting to be taken.
    @Test func aClaimThatMayNotPutBackWaitsForTheSlot() {
        // Whichever comes first, the claim starting to wait or the claim returning, signals.
        let firstEvent = DispatchSemaphore(value: 0)
        let scheduler = BatchScheduler(order: [0, 1, 2], slot: HeavyDecodeSlot(onWait: { firstEvent.signal() }))
        #expect(scheduler.take() == 0)
        #expect(scheduler.claimHeavy(0))
        #expect(scheduler.take() == 1)
        let claimed = Locked<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = scheduler.claimHeavy(1, mayPutBack: false)
            claimed.withLock { $0 = result }
            firstEvent.signal()
            done.signal()
        }
        // The claim can only return once the slot is free: it must wait first, and nothing is
        // there while it waits (a claim that returned at once would have set `claimed`).
        firstEvent.wait()
        #expect(claimed.withLock { $0 } == nil)
        scheduler.releaseHeavy()
        done.wait()
        #expect(claimed.withLock { $0 } == true)
        #expect(scheduler.take() == 2)  // file 1 was not put back
        scheduler.releaseHeavy()
        #expect(scheduler.take() == nil)
    }

    /// The lanes of a catalog build each schedule their own batch: with one slot between their
    /// schedulers, a heavy decode in one lane holds back the other lane's.
    @Test func schedulersSharingASlotNeverHoldItTogether() {
        let firstEvent = DispatchSemaphore(value: 0)
        let slot = HeavyDecodeSlot(onWait: { firstEvent.signal() })
        let first = BatchScheduler(order: [0], slot: slot)
        let second = BatchScheduler(order: [0, 1], slot: slot)
        #expect(first.take() == 0)
        #expect(first.claimHeavy(0))
        #expect(second.take() == 0)
        #expect(!second.claimHeavy(0))  // put back: the other lane's decode holds the slot
        #expect(second.take() == 1)
        let ran = Locked(false)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            slot.run(heavy: true) { ran.withLock { $0 = true } }
            firstEvent.signal()
            done.signal()
        }
        firstEvent.wait()  // the run waiting for the slot, or (wrongly) done
        #expect(ran.withLock { $0 } == false)  // a heavy run waits for the slot too
        first.releaseHeavy()
        done.wait()
        #expect(ran.withLock { $0 })
        #expect(second.take() == 0)  // the put-back file, now that the slot is free
        #expect(slot.run(heavy: false) { 7 } == 7)
    }
}
