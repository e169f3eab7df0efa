// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// A worker's claims grow while its records build quickly and shrink when they slow down,
/// within the options' batch and batch limit; with no limit above the batch they never move.
struct BatchSizerTests {
    /// A sizer, then runs of (records, milliseconds) and the claim size after each.
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let start: Int
        let limit: Int
        var runsPerClaim = 1
        let runs: [(records: Int, ms: Int64, size: Int)]
    }

    static let cases: [Case] = [
        // 4 records in 1 ms: 400 would fill 100 ms, but a claim grows at most fourfold.
        Case(
            description: "quick runs grow at most fourfold, up to the limit", start: 4, limit: 64,
            runs: [(4, 1, 16), (16, 4, 64), (64, 16, 64)]),
        // 5 ms a record: 20 fill 100 ms (the first step held to 16 by the fourfold ceiling).
        Case(
            description: "a claim takes what fills the target", start: 4, limit: 1000,
            runs: [(4, 20, 16), (16, 80, 20)]),
        // 50 ms a record: 2 fill 100 ms, but never below the start; then 10 ms a record.
        Case(
            description: "slow runs shrink it to the start at once", start: 4, limit: 64,
            runs: [(4, 1, 16), (16, 1, 64), (64, 3200, 4), (4, 40, 10)]),
        Case(
            description: "a limit equal to the start never moves", start: 8, limit: 8,
            runs: [(8, 0, 8), (8, 100_000, 8)]),
        // Two lanes: a lane's 4 records in 10 ms, so 40 a lane fill 100 ms: 80 a claim, held
        // to four times 8 first.
        Case(
            description: "lanes share one claim, a run each", start: 8, limit: 128, runsPerClaim: 2,
            runs: [(4, 10, 32), (16, 40, 80)]),
    ]

    @Test(arguments: cases) func theClaimFollowsTheRunTimes(_ test: Case) {
        let sizer = BatchSizer(start: test.start, limit: test.limit, runsPerClaim: test.runsPerClaim)
        #expect(sizer.size == test.start)
        #expect(sizer.share == test.start / test.runsPerClaim)
        for run in test.runs {
            sizer.record(records: run.records, elapsed: .milliseconds(run.ms))
            #expect(sizer.size == run.size, "after \(run.records) in \(run.ms) ms")
            #expect(sizer.share == run.size / test.runsPerClaim)
        }
    }

    @Test func aLimitBelowTheBatchIsTheBatch() {
        #expect(BuildWorker.Options(batch: 8, batchLimit: 2).batchLimit == 8)
        #expect(BuildWorker.Options(batch: 8).batchLimit == 8)
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
