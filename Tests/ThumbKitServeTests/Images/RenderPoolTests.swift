// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import ThumbKitServe

@Suite struct RenderPoolTests {
    /// Two threads busy and one job waiting fill a pool of 2 with a queue of 1: the next job is
    /// refused at once, and every accepted job still runs once the threads are released.
    @Test func aFullPoolRefusesAtOnceAndRunsWhatItAccepted() async throws {
        let pool = RenderPool(workers: 2, queueLimit: 1)
        defer { pool.stop() }
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let accepted = (0..<3).map { index in
            Task {
                await pool.run {
                    started.signal(); release.wait(); return index
                }
            }
        }
        await Self.wait(started)
        await Self.wait(started)
        // Both threads hold a job; wait until the third is queued.
        let deadline = ContinuousClock.now + .seconds(30)
        while pool.queueDepth < 1 && ContinuousClock.now < deadline { await Task.yield() }
        #expect(pool.queueDepth == 1)
        #expect(pool.inFlight == 2)
        #expect(await pool.run { -1 } == nil)
        for _ in 0..<3 { release.signal() }
        var results: [Int?] = []
        for task in accepted { results.append(await task.value) }
        #expect(results == [0, 1, 2])
        #expect(pool.inFlight == 0 && pool.queueDepth == 0)
    }

    @Test func jobsRunOnThePoolsOwnThreads() async throws {
        let pool = RenderPool(workers: 1, queueLimit: 0)
        defer { pool.stop() }
        #expect(await pool.run { pool.isPoolThread } == true)
        #expect(!pool.isPoolThread)
    }

    /// Waits for `semaphore` off Swift's cooperative threads, which the pool's tasks need.
    static func wait(_ semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { c in
            DispatchQueue.global().async {
                semaphore.wait(); c.resume()
            }
        }
    }
}
