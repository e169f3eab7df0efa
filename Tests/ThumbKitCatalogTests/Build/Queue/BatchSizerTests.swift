// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// A worker's claims grow while its records build quickly and shrink when they slow down,
/// within the options' batch and batch limit; with no limit above the batch they never move.
struct BatchSizerTests {
    @Test func quickRunsGrowTheClaimAtMostFourfoldUpToTheLimit() {
        let sizer = BatchSizer(start: 4, limit: 64)
        #expect(sizer.size == 4)
        // 4 records in 1 ms: 400 would fill 100 ms, but a claim grows at most fourfold.
        sizer.record(records: 4, elapsed: .milliseconds(1))
        #expect(sizer.size == 16)
        sizer.record(records: 16, elapsed: .milliseconds(4))
        #expect(sizer.size == 64)
        sizer.record(records: 64, elapsed: .milliseconds(16))
        #expect(sizer.size == 64)
    }

    @Test func aClaimTakesAboutWhatFillsTheTarget() {
        let sizer = BatchSizer(start: 4, limit: 1000)
        // 4 records in 20 ms: 5 ms each, so 20 would fill 100 ms, but a claim grows at most
        // fourfold: 16.
        sizer.record(records: 4, elapsed: .milliseconds(20))
        #expect(sizer.size == 16)
        // 16 records in 80 ms: 5 ms each again, 20 fill 100 ms.
        sizer.record(records: 16, elapsed: .milliseconds(80))
        #expect(sizer.size == 20)
    }

    @Test func slowRunsShrinkTheClaimBackToTheStartAtOnce() {
        let sizer = BatchSizer(start: 4, limit: 64)
        sizer.record(records: 4, elapsed: .milliseconds(1))
        sizer.record(records: 16, elapsed: .milliseconds(1))
        #expect(sizer.size == 64)
        // 64 records in 3.2 s: 50 ms each, 2 fill 100 ms; never below the start.
        sizer.record(records: 64, elapsed: .milliseconds(3200))
        #expect(sizer.size == 4)
        sizer.record(records: 4, elapsed: .milliseconds(40))
        #expect(sizer.size == 10)
    }

    @Test func aLimitEqualToTheStartNeverMoves() {
        let sizer = BatchSizer(start: 8, limit: 8)
        sizer.record(records: 8, elapsed: .zero)
        #expect(sizer.size == 8)
        sizer.record(records: 8, elapsed: .seconds(100))
        #expect(sizer.size == 8)
        // A limit below the start is the start.
        #expect(BuildWorker.Options(batch: 8, batchLimit: 2).batchLimit == 8)
        #expect(BuildWorker.Options(batch: 8).batchLimit == 8)
    }

    @Test func lanesShareOneClaimARunEach() {
        let sizer = BatchSizer(start: 8, limit: 128, runsPerClaim: 2)
        #expect(sizer.share == 4)
        // A lane's 4 records in 10 ms: 40 fill 100 ms, so the claim for both lanes is 80, at
        // most fourfold the 8 before: 32, 16 a lane.
        sizer.record(records: 4, elapsed: .milliseconds(10))
        #expect(sizer.size == 32 && sizer.share == 16)
        sizer.record(records: 16, elapsed: .milliseconds(40))
        #expect(sizer.size == 80 && sizer.share == 40)
    }

    /// The sizes of the claims a drain made, in order (the `claimed` crash point of each run).
    final class ClaimSizes: BuildCrashPoints {
        let sizes = Locked([Int]())
        let clock: FakeBuildClock
        let runTime: Double

        /// Each run takes `runTime` seconds of `clock`'s time.
        init(clock: FakeBuildClock, runTime: Double) {
            self.clock = clock
            self.runTime = runTime
        }

        func reached(_ point: BuildCrashPoint, records: [RecordRef]) {
            guard point == .claimed else { return }
            sizes.withLock { $0.append(records.count) }
            clock.advance(runTime)
        }
    }

    /// A drain of 60 bugs and a food from a batch of 2 with a limit of 32: quick runs (no time
    /// passes on the worker's clock) take ever larger claims, a handful in all; slow ones (a
    /// second a run) stay at 2, as a worker with no limit above its batch does.
    @Test(arguments: CatalogBackend.all, [0.0, 1.0])
    func aDrainOfQuickRecordsClaimsMoreAtATime(backend: CatalogBackend, runTime: Double) throws {
        let workspace = try TestWorkspace()
        let store = try BuildWorkerTests.catalog(workspace, "c.sqlite", bugs: 60, backend: backend)
        let out = workspace.path("out")
        let builder = CatalogBuilder(store: store, outputDirectory: out, recipes: BuildWorkerTests.recipes, jobs: 1)
        let plan = try builder.planQueue(BuildQueue(store: store), now: Date())
        #expect(plan.queued.count == 62)
        let clock = FakeBuildClock()
        let claims = ClaimSizes(clock: clock, runTime: runTime)
        let worker = BuildWorker(
            builder: builder, queue: BuildQueue(store: store), id: "w",
            options: .init(lease: .seconds(30), batch: 2, batchLimit: 32), clock: clock, crashPoints: claims)
        let report = try worker.drain(idle: .milliseconds(20))
        #expect(report.failed == 0 && report.made > 0)
        let sizes = claims.sizes.withLock { $0 }
        #expect(sizes.reduce(0, +) == 62)
        #expect(sizes.allSatisfy { $0 <= 32 })
        if runTime == 0 {
            #expect(sizes.count <= 6, "claims: \(sizes)")
            #expect(sizes.contains(32), "claims: \(sizes)")
            for (before, after) in zip(sizes, sizes.dropFirst().dropLast()) { #expect(after <= max(2, before) * 4) }
        } else {
            #expect(sizes.allSatisfy { $0 <= 2 }, "claims: \(sizes)")
        }
        #expect(try BuildQueue(store: store).entries() == [])
        #expect(try consistencyProblems(store: store, outputDirectory: out) == [])
    }
}
