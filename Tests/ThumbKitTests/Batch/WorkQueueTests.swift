// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// The one work queue: every index exactly once, in the hand-out order asked for, on either kind
/// of lane, and whatever the number of workers.
struct WorkQueueTests {
    @Test(arguments: [WorkQueue.Lanes.pool, .threads], [1, 2, 3, 8, 100])
    func everyIndexRunsExactlyOnce(lanes: WorkQueue.Lanes, workers: Int) {
        let seen = Locked([Int](repeating: 0, count: 50))
        WorkQueue.forEach(50, workers: workers, lanes: lanes) { index in seen.withLock { $0[index] += 1 } }
        #expect(seen.withLock { $0 } == [Int](repeating: 1, count: 50))
    }

    @Test func oneWorkerFollowsTheOrderGiven() {
        let order = [3, 0, 4, 1, 2]
        for lanes in [WorkQueue.Lanes.pool, .threads] {
            let visited = Locked<[Int]>([])
            WorkQueue.forEach(5, workers: 1, order: order, lanes: lanes) { index in
                visited.withLock { $0.append(index) }
            }
            #expect(visited.withLock { $0 } == order)
        }
    }

    @Test func nothingToDoCallsNothing() {
        WorkQueue.forEach(0, workers: 4) { _ in Issue.record("called with nothing to do") }
    }

    @Test func threadLanesAllRunAtOnce() {
        // Four lanes that each wait (up to 10 s) for the others: on the pool this could wait
        // forever on a machine with fewer cores; on threads it never does.
        let meeting = Rendezvous(parties: 4)
        let gaveUp = Atomic<Bool>(false)
        WorkQueue.forEach(4, workers: 4, lanes: .threads) { _ in
            if !meeting.arrive(timeout: 10) { gaveUp.store(true, ordering: .relaxed) }
        }
        let waitedForever = gaveUp.load(ordering: .relaxed)
        #expect(!waitedForever)
    }

    @Test func drainStopsWhenTakeReturnsNil() {
        let queue = Locked([5, 6, 7])
        let visited = Locked<[Int]>([])
        WorkQueue.drain(workers: 1) {
            queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        } body: { index in
            visited.withLock { $0.append(index) }
        }
        #expect(visited.withLock { $0 } == [5, 6, 7])
    }
}
