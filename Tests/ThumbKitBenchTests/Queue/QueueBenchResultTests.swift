// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import ThumbKitBench
@testable import ThumbKitCatalog

/// The figures of `thumbkit bench queue` from the workers' samples: nearest-rank percentiles,
/// and only the samples inside the measured window.
struct QueueBenchResultTests {
    @Test func percentilesAreNearestRank() {
        let values = (1...100).map(Double.init).shuffled()
        #expect(QueueBenchResult.percentile(50, of: values) == 50)
        #expect(QueueBenchResult.percentile(99, of: values) == 99)
        #expect(QueueBenchResult.percentile(100, of: values) == 100)
        #expect(QueueBenchResult.percentile(99, of: [7]) == 7)
        #expect(QueueBenchResult.percentile(50, of: []) == nil)
    }

    @Test func onlySamplesInsideTheWindowCount() {
        var first = QueueMeter.Snapshot()
        first.claims = [.init(at: 5, ms: 100), .init(at: 11, ms: 1), .init(at: 12, ms: 3)]
        first.lockWaits = [.init(at: 9, ms: 500), .init(at: 11, ms: 2), .init(at: 21, ms: 500)]
        first.commits = [.init(at: 9, ms: 0), .init(at: 11, ms: 0), .init(at: 12, ms: 0)]
        var second = QueueMeter.Snapshot()
        second.claims = [.init(at: 15, ms: 2)]
        second.lockWaits = [.init(at: 15, ms: 6)]
        second.commits = [.init(at: 15, ms: 0), .init(at: 20, ms: 0), .init(at: 25, ms: 0)]
        var result = QueueBenchResult(
            backend: "sqlite", workers: 2, batch: 1, batchLimit: 1, records: 4, built: 4, duplicates: 0, failed: 0,
            lost: 0,
            queueLeft: 0, outputRows: 4, seconds: 0, recordsPerSecond: 0, commits: 0, commitsPerSecond: 0, claims: 0,
            lockWaitMs: 0, lockWaitPerRecordMs: 0, lockWaitShare: 0, folder: "/nowhere")
        result.measure([first, second], from: 10, to: 20)
        #expect(result.seconds == 10)
        #expect(result.recordsPerSecond == 0.4)
        #expect(result.commits == 4)
        #expect(result.commitsPerSecond == 0.4)
        #expect(result.claims == 3)
        #expect(result.claimP50Ms == 2)
        #expect(result.claimP99Ms == 3)
        #expect(result.lockWaitMs == 8)
        #expect(result.lockWaitPerRecordMs == 2)
        #expect(result.lockWaitShare == 8.0 / 1000 / 20)
    }

    @Test func aMeterKeepsClaimsThatTookRowsAndEveryWrite() {
        let meter = QueueMeter()
        meter.claimed(rows: 0, in: .milliseconds(1))
        meter.claimed(rows: 3, in: .milliseconds(4))
        meter.writeLockTaken(after: .microseconds(1500))
        meter.writeCommitted()
        let snapshot = meter.snapshot
        #expect(snapshot.claims.map(\.rows) == [3])
        #expect(snapshot.claims.map(\.ms) == [4])
        #expect(snapshot.lockWaits.map(\.ms) == [1.5])
        #expect(snapshot.commits.count == 1)
    }
}
