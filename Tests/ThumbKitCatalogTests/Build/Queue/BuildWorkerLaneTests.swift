// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// A worker with two jobs drains in two lanes, each claiming and building on its own (no batch
/// waits for its slowest record), and still builds every record once, under one worker id.
struct BuildWorkerLaneTests {
    /// At each claim: notes the claiming thread, and holds the first claims until two threads
    /// have claimed (or five seconds pass), which only lanes that run side by side can do.
    final class Rendezvous: BuildCrashPoints {
        let threads = Locked(Set<UInt>())
        let met = DispatchSemaphore(value: 0)

        func reached(_ point: BuildCrashPoint, records: [RecordRef]) {
            guard point == .claimed else { return }
            let count = threads.withLock { threads in
                threads.insert(UInt(pthread_self()))
                return threads.count
            }
            if count == 2 {
                met.signal()
                met.signal()
            }
            if count < 2 { _ = met.wait(timeout: .now() + 5) }
        }

        var claimingThreads: Int { threads.withLock { $0.count } }
    }

    /// Both a rendezvous and the shared ledger of who holds what.
    struct Points: BuildCrashPoints {
        let rendezvous: Rendezvous
        let holdings: BuildWorkerTests.Holdings

        func reached(_ point: BuildCrashPoint, records: [RecordRef]) {
            holdings.reached(point, records: records)
            rendezvous.reached(point, records: records)
        }
    }

    @Test(arguments: CatalogBackend.all)
    func twoJobsDrainInTwoLanesEveryRecordOnceAsOneBuildMakes(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let bugs = 12
        let reference = try BuildWorkerTests.catalog(workspace, "ref.sqlite", bugs: bugs, backend: backend)
        let single = CatalogBuilder(
            store: reference, outputDirectory: workspace.path("ref-out"), recipes: BuildWorkerTests.recipes, jobs: 1
        ).build()
        #expect(single.failed == 0 && single.made > 0)

        let store = try BuildWorkerTests.catalog(workspace, "c.sqlite", bugs: bugs, backend: backend)
        let out = workspace.path("out")
        let builder = CatalogBuilder(store: store, outputDirectory: out, recipes: BuildWorkerTests.recipes, jobs: 2)
        let queue = BuildQueue(store: store)
        let plan = try builder.planQueue(queue, now: Date())
        let rendezvous = Rendezvous()
        let ledger = BuildWorkerTests.Ledger()
        let worker = BuildWorker(
            builder: builder, queue: queue, id: "w", options: .init(lease: .seconds(30), batch: 2),
            crashPoints: Points(rendezvous: rendezvous, holdings: .init(worker: "w", ledger: ledger)))
        let caller = pthread_self()
        var events: [BuildWorker.Event] = []
        var offThread = 0
        let report = try worker.drain(
            idle: .milliseconds(20),
            onEvent: { event in
                if pthread_equal(pthread_self(), caller) == 0 { offThread += 1 }
                events.append(event)
            })

        // Two lanes claimed side by side, no record was held twice, every callback came here.
        #expect(rendezvous.claimingThreads == 2)
        #expect(ledger.overlaps.withLock { $0 } == [])
        #expect(offThread == 0)
        // Every queued record once, built; what one plain build makes; nothing left queued.
        #expect(events.allSatisfy { $0.status == .built && $0.worker == "w" })
        #expect(events.count == plan.queued.count && Set(events.map(\.record)).count == plan.queued.count)
        #expect(report.failed == 0 && report.made == single.made, "\(report.failures)")
        #expect(try queue.entries() == [])
        #expect(try consistencyProblems(store: store, outputDirectory: out) == [])
        func rows(_ store: CatalogStore) throws -> Set<String> {
            Set(try store.read { try $0.outputs() }.map { "\($0.record) \($0.path) \($0.bytes)" })
        }
        #expect(try rows(store) == rows(reference))
    }

    /// Counts the write transactions a store committed.
    final class Commits: WriteTransactionObserver {
        let count = Locked(0)
        func writeLockTaken(after wait: Duration) {}
        func writeCommitted() { count.withLock { $0 += 1 } }
    }

    /// Each lane takes `batch / lanes` records and commits them together: two lanes with a
    /// batch of 8 build 40 bugs (and the app entry, a food) in fewer write transactions than
    /// records, claims and all; taking one record at a time, they made 51 for 42 records.
    @Test(arguments: CatalogBackend.all)
    func twoLanesCommitSeveralRecordsPerTransaction(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let store = try BuildWorkerTests.catalog(workspace, "c.sqlite", bugs: 40, backend: backend)
        let out = workspace.path("out")
        let builder = CatalogBuilder(store: store, outputDirectory: out, recipes: BuildWorkerTests.recipes, jobs: 2)
        let queue = BuildQueue(store: store)
        let plan = try builder.planQueue(queue, now: Date())
        let records = plan.queued.count
        let commits = Commits()
        store.observeWrites(commits)
        var events: [BuildWorker.Event] = []
        let worker = BuildWorker(builder: builder, queue: queue, id: "w", options: .init(lease: .seconds(30), batch: 8))
        let report = try worker.drain(idle: .milliseconds(20), onEvent: { events.append($0) })
        #expect(report.failed == 0 && report.made > 0, "\(report.failures)")
        #expect(events.count == records && events.allSatisfy { $0.status == .built })
        #expect(try queue.entries() == [])
        let transactions = commits.count.withLock { $0 }
        #expect(transactions < records, "\(transactions) write transactions for \(records) records")
        #expect(try consistencyProblems(store: store, outputDirectory: out) == [])
    }
}
