// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit

@testable import ThumbKitServe

@Suite struct SingleFlightTests {
    /// Five callers of one key while its work is held: the work runs once, four share it; a
    /// caller of another key runs its own.
    @Test func concurrentCallersOfOneKeyShareOneRun() async throws {
        let flight = SingleFlight<Int>()
        let runs = Locked(0)
        let gate = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        let leader = Task {
            await flight.run("a") {
                runs.withLock { $0 += 1 }
                entered.signal()
                await withCheckedContinuation { c in
                    DispatchQueue.global().async {
                        gate.wait(); c.resume()
                    }
                }
                return 7
            }
        }
        await withCheckedContinuation { c in
            DispatchQueue.global().async {
                entered.wait(); c.resume()
            }
        }
        let followers = (0..<4).map { _ in
            Task {
                await flight.run("a") {
                    runs.withLock { $0 += 1 }; return 0
                }
            }
        }
        let other = await flight.run("b") { 9 }
        // Give the followers time to join: they must be waiting before the leader finishes.
        let deadline = ContinuousClock.now + .seconds(30)
        while flight.waitingCount("a") < 5 && ContinuousClock.now < deadline { await Task.yield() }
        #expect(flight.waitingCount("a") == 5)
        gate.signal()
        let first = await leader.value
        #expect(first.0 == 7 && !first.shared)
        for follower in followers {
            let result = await follower.value
            #expect(result.0 == 7 && result.shared)
        }
        #expect(other.0 == 9 && !other.shared)
        #expect(runs.withLock { $0 } == 1)
    }
}
