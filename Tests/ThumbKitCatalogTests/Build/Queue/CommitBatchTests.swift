// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// The batch commit (`CommitBatch`): a worker's built records recorded in one transaction
/// behind one fence for all of them.
struct CommitBatchTests {
    /// At the claim, before anything is built, moves one record's claim on: the row gets a new
    /// claim sequence (and, unless `sameWorker`, another worker's id), as a re-claim after the
    /// lease ran out does.
    struct TakeOne: BuildCrashPoints {
        let store: CatalogStore
        let record: RecordRef
        let successor: String

        func reached(_ point: BuildCrashPoint, records: [RecordRef]) {
            guard point == .claimed else { return }
            #expect(records.contains(record))
            let changed = try? store.write { tx in
                _ = try tx.db.run("UPDATE build_claim_sequence SET last = last + 1 WHERE id = 1", [])
                return try tx.db.run(
                    """
                    UPDATE build_queue SET worker_id = ?, claim_seq = (SELECT last FROM build_claim_sequence WHERE id = 1)
                    WHERE record_kind = ? AND record_id = ?
                    """, [.text(successor), .text(record.kind.rawValue), .integer(record.id)])
            }
            #expect(changed == 1)
        }
    }

    /// Files below `out` that no output row names (the ownership marker aside).
    static func unrecordedFiles(_ store: CatalogStore, out: String) throws -> [String] {
        let referenced = try store.read { try $0.outputPaths() }
        return OutputFolder(root: out).files(in: [""], includeHidden: true)
            .filter { $0 != OutputFolder.markerName && !referenced.contains($0) }
    }

    @Test(arguments: CatalogBackend.all, [false, true])
    func aBatchWhoseOneFenceWasTakenCommitsTheOthersAndReportsThatOneLost(
        backend: CatalogBackend, sameWorker: Bool
    ) throws {
        let workspace = try TestWorkspace()
        let store = try BuildWorkerTests.catalog(workspace, "c.sqlite", bugs: 3, backend: backend)
        let out = workspace.path("out")
        let builder = CatalogBuilder(store: store, outputDirectory: out, recipes: BuildWorkerTests.recipes, jobs: 1)
        let queue = BuildQueue(store: store)
        // The folder claimed first (the build that claims it removes nothing there).
        #expect(builder.build(only: []).failed == 0)
        _ = try builder.planQueue(queue, now: Date())
        // Not the app entry: a batch holds bugs and foods only (the app commits alone).
        try store.write { tx in _ = try tx.db.run("DELETE FROM build_queue WHERE record_kind = 'app'") }
        let other = try CatalogStore(location: store.location)
        let successor = sameWorker ? "batch" : "successor"
        let worker = BuildWorker(
            builder: builder, queue: queue, id: "batch", options: .init(lease: .seconds(30), batch: 10),
            crashPoints: TakeOne(store: other, record: .bug(2), successor: successor))
        var events: [BuildWorker.Event] = []
        let report = try #require(try worker.runBatch(onEvent: { events.append($0) }))

        #expect(report.failed == 0, "\(report.failures)")
        let status = Dictionary(events.map { ($0.record, $0.status) }, uniquingKeysWith: { a, _ in a })
        #expect(status == ["bug 1": .built, "bug 2": .lost, "bug 3": .built, "food 1": .built])
        // The others' rows are in, and their queue rows gone; the taken one's row is its new
        // owner's, untouched, and nothing of it is recorded.
        for record: RecordRef in [.bug(1), .bug(3), .food(1)] {
            #expect(try store.read { try $0.outputs(for: record) }.contains { $0.kind == .list }, "\(record)")
        }
        #expect(try store.read { try $0.outputs(for: .bug(2)) }.filter { $0.kind == .list } == [])
        let rows = try queue.entries()
        #expect(rows.map(\.record) == [.bug(2)])
        #expect(rows.first?.workerID == successor)
        // Its files (which no row describes) were removed: every file left is recorded.
        let unrecorded = try Self.unrecordedFiles(store, out: out)
        #expect(unrecorded == [], "\(unrecorded)")
        #expect(try consistencyProblems(store: store, outputDirectory: out) == [])
    }

    /// Two batches over the same records, given in opposite orders, lock them in one order
    /// (key order), so neither can hold one row while waiting for the other's: the batch
    /// given (food, bug) waits for the bug row another transaction holds, holding nothing, and
    /// that transaction can then take the food row too. Were the rows locked in the order
    /// given, the waiting batch would hold the food row, and the other transaction's next
    /// lock would close a cycle (a deadlock; here its `NOWAIT` fails).
    @Test(.enabled(if: CatalogBackend.postgresEnabled))
    func twoBatchesOverTheSameRecordsInOppositeOrdersDoNotDeadlock() throws {
        let f = try QueueLockTests.Fixture()
        let queue = BuildQueue(store: f.store)
        _ = try f.build.builder(jobs: 1).planQueue(queue, now: Date())
        try f.store.write { tx in _ = try tx.db.run("DELETE FROM build_queue WHERE record_kind = 'app'") }
        let claims = try queue.claim(worker: "w", limit: 10, lease: .seconds(60), now: Date())
        let bug = try #require(claims.first { $0.record == .bug(1) })
        let food = try #require(claims.first { $0.record == .food(1) })
        // The bug's row goes after the food's in the table, so a scan meets the food first.
        try f.store.write { tx in
            _ = try tx.db.run("UPDATE build_queue SET attempts = attempts WHERE record_kind = 'bug' AND record_id = 1")
        }
        let lockRow = "SELECT 1 FROM build_queue WHERE record_kind = ? AND record_id = ? FOR UPDATE"
        let otherQueue = BuildQueue(store: f.other)
        let other = f.other
        let late = LockWaitProbe<Set<RecordRef>>()
        let outcome = try f.store.write(mode: .shared) { tx in
            // A batch in key order, between its two rows: the bug's locked, the food's next.
            _ = try tx.db.queryFirst(lockRow, [.text("bug"), .integer(1)]) { $0.int(0) }
            let outcome = try late.start(in: tx) {
                try other.write(mode: .shared) { tx in try otherQueue.check([food, bug], worker: "w", in: tx) }
            }
            _ = try tx.db.queryFirst(lockRow + " NOWAIT", [.text("food"), .integer(1)]) { $0.int(0) }
            return outcome
        }
        #expect(outcome == .waited)
        #expect(try late.joined() == [.bug(1), .food(1)])
    }
}
