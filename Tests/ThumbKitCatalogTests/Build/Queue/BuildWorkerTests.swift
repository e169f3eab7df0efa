// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

/// Workers building real records through the queue, in this process, each on a connection of
/// its own (as separate processes would be), on each backend: on PostgreSQL the claims are
/// `FOR UPDATE SKIP LOCKED` over separate connections.
struct BuildWorkerTests {
    /// Small outputs only, so the builds are quick: one list recipe for bugs, one for foods.
    static let recipes: RecipeBook = {
        let data = Data(
            #"{"replaceDefaults": true, "recipes": [{"name": "bug-list", "record": "bug", "kind": "list", "size": "16x16", "scales": [1, 2]}, {"name": "food-list", "record": "food", "kind": "list", "size": "16x16", "scales": [1]}]}"#
                .utf8)
        return try! RecipeBook.decode(data, path: "recipes.json")
    }()

    /// A catalog at `name` with `bugs` bugs and a food, their own pictures, and rating icons.
    static func catalog(
        _ workspace: TestWorkspace, _ name: String, bugs: Int, backend: CatalogBackend
    ) throws -> CatalogStore {
        let store = try workspace.store(name, backend: backend)
        var pictures: [String] = []
        for index in 0...bugs {
            pictures.append(try workspace.image("img/\(index).png", width: 24, height: 24, seed: index))
        }
        try store.write { tx in
            for index in 0..<bugs {
                try tx.addBug(
                    title: "Bug \(index)", rating: Rating.all[index % 11],
                    image: try ImageRef.load(path: pictures[index]))
            }
            let category = try tx.addCategory("Soups")
            _ = try tx.addFood(categoryID: category.id, name: "Broth", image: try ImageRef.load(path: pictures[bugs]))
        }
        try workspace.addAssets(to: store)
        return store
    }

    /// Which worker holds which record between its claim and the end of its batch, shared by
    /// all the workers of a test, and every overlap (a record held by two at once).
    final class Ledger: Sendable {
        let held = Locked([RecordRef: String]())
        let overlaps = Locked([String]())
    }

    /// One worker's entries in the ledger.
    struct Holdings: BuildCrashPoints {
        let worker: String
        let ledger: Ledger

        func reached(_ point: BuildCrashPoint, records: [RecordRef]) {
            ledger.held.withLock { held in
                for record in records {
                    switch point {
                    case .claimed:
                        if let other = held[record] {
                            ledger.overlaps.withLock { $0.append("\(record): \(other) and \(worker)") }
                        }
                        held[record] = worker
                    case .built:
                        held[record] = nil
                    }
                }
            }
        }
    }

    @Test(arguments: CatalogBackend.all)
    func threeWorkersShareABuildNoRecordTwiceAndMakeWhatOneBuildMakes(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let bugs = 30
        // What one plain build makes, in a catalog of its own.
        let reference = try Self.catalog(workspace, "ref.sqlite", bugs: bugs, backend: backend)
        let single = CatalogBuilder(store: reference, outputDirectory: workspace.path("ref-out"), recipes: Self.recipes)
            .build()
        #expect(single.failed == 0 && single.made > 0)

        let store = try Self.catalog(workspace, "c.sqlite", bugs: bugs, backend: backend)
        let out = workspace.path("out")
        let plan = try CatalogBuilder(store: store, outputDirectory: out, recipes: Self.recipes)
            .planQueue(BuildQueue(store: store), now: Date())
        #expect(plan.queued.count == bugs + 2)
        let ledger = Ledger()
        let reports = Locked([String: BuildReport]())
        let events = Locked([BuildWorker.Event]())
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            do {
                let own = try CatalogStore(location: store.location)
                let worker = BuildWorker(
                    builder: CatalogBuilder(store: own, outputDirectory: out, recipes: Self.recipes, jobs: 1),
                    queue: BuildQueue(store: own), id: "w\(index)", options: .init(lease: .seconds(30), batch: 2),
                    crashPoints: Holdings(worker: "w\(index)", ledger: ledger))
                let report = try worker.drain(
                    idle: .milliseconds(20),
                    onEvent: { event in
                        events.withLock { $0.append(event) }
                    })
                reports.withLock { $0["w\(index)"] = report }
            } catch {
                Issue.record("worker \(index): \(error)")
            }
        }
        let all = reports.withLock { $0 }
        #expect(all.count == 3)
        #expect(ledger.overlaps.withLock { $0 } == [])
        #expect(all.values.reduce(0) { $0 + $1.made } == single.made)
        #expect(all.values.allSatisfy { $0.failed == 0 })
        let seen = events.withLock { $0 }
        #expect(seen.allSatisfy { $0.status == .built })
        #expect(seen.count == plan.queued.count && Set(seen.map(\.record)).count == plan.queued.count)
        #expect(try BuildQueue(store: store).entries() == [])
        #expect(try consistencyProblems(store: store, outputDirectory: out) == [])
        func rows(_ store: CatalogStore) throws -> Set<String> {
            Set(try store.read { try $0.outputs() }.map { "\($0.record) \($0.path) \($0.bytes)" })
        }
        #expect(try rows(store) == rows(reference))
    }

    /// At its claim, lets the lease run out on the fake clock and another worker (or, with
    /// `successor` its own id, another lane of the same worker) claim the records, before this
    /// one builds them.
    struct StallPastLease: BuildCrashPoints {
        let clock: FakeBuildClock
        let queue: BuildQueue
        var successor = "successor"
        /// The successor's claims.
        let taken = Locked([BuildQueue.Claim]())

        func reached(_ point: BuildCrashPoint, records: [RecordRef]) {
            guard point == .claimed else { return }
            clock.advance(60)
            let claims = (try? queue.claim(worker: successor, limit: 10, lease: .seconds(30), now: clock.now())) ?? []
            #expect(Set(claims.map(\.record)) == Set(records))
            taken.withLock { $0 = claims }
        }
    }

    /// `sameWorker`: the successor is the stalled worker itself (another lane of it, under the
    /// same id), which the claim sequence tells apart from its stale first claim.
    @Test(arguments: CatalogBackend.all, [false, true])
    func aWorkerWhoseLeaseRanOutRecordsNothingAndTheRecordsAreBuiltOnceLater(
        backend: CatalogBackend, sameWorker: Bool
    ) throws {
        let workspace = try TestWorkspace()
        let store = try Self.catalog(workspace, "c.sqlite", bugs: 2, backend: backend)
        let out = workspace.path("out")
        let builder = CatalogBuilder(store: store, outputDirectory: out, recipes: Self.recipes, jobs: 1)
        let plan = try builder.planQueue(BuildQueue(store: store), now: Date())
        let clock = FakeBuildClock(Date())
        let other = try CatalogStore(location: store.location)
        var events: [BuildWorker.Event] = []
        let stall = StallPastLease(
            clock: clock, queue: BuildQueue(store: other), successor: sameWorker ? "stalled" : "successor")
        let stalled = BuildWorker(
            builder: builder, queue: BuildQueue(store: store), id: "stalled",
            options: .init(lease: .seconds(30), batch: 10), clock: clock, crashPoints: stall)
        let report = try #require(try stalled.runBatch(onEvent: { events.append($0) }))
        // It made every file, but its commits were refused: no row, no failure, all lost.
        #expect(report.made == 0 && report.failed == 0, "\(report.failures)")
        #expect(events.count == plan.queued.count && events.allSatisfy { $0.status == .lost })
        #expect(try store.read { try $0.outputs() } == [])
        let rows = try BuildQueue(store: store).entries()
        #expect(rows.allSatisfy { $0.workerID == stall.successor && $0.attempts == 2 })
        #expect(Set(rows.map(\.claimSequence)) == Set(stall.taken.withLock { $0 }.map(\.sequence)))

        // The successor died too: once its lease has run out, a third worker builds everything.
        clock.advance(60)
        let third = BuildWorker(
            builder: CatalogBuilder(store: other, outputDirectory: out, recipes: Self.recipes, jobs: 1),
            queue: BuildQueue(store: other), id: "third", clock: clock)
        let after = try third.drain(idle: .milliseconds(10))
        #expect(after.failed == 0 && after.made == 33 + 2 * (2 + 3) + 1)
        #expect(try BuildQueue(store: store).entries() == [])
        #expect(try consistencyProblems(store: store, outputDirectory: out) == [])
    }

    @Test(arguments: CatalogBackend.all)
    func aRecordWhoseSourceIsMissingGoesBackWithTheReasonAndIsNeverRecordedAsBuilt(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let store = try Self.catalog(workspace, "c.sqlite", bugs: 2, backend: backend)
        let missing = try #require(try store.read { try $0.bug(id: 2) }?.image?.path)
        try FileManager.default.removeItem(atPath: missing)
        let builder = CatalogBuilder(store: store, outputDirectory: workspace.path("out"), recipes: Self.recipes)
        let queue = BuildQueue(store: store)
        _ = try builder.planQueue(queue, now: Date())
        var events: [BuildWorker.Event] = []
        let report = try BuildWorker(builder: builder, queue: queue, options: .init(lease: .seconds(5), batch: 1))
            .drain(onEvent: { events.append($0) })
        #expect(report.failed == 1 && report.failures.first?.contains(missing) == true, "\(report.failures)")
        let failed = try #require(events.first { $0.record == "bug 2" })
        #expect(failed.status == .failed && failed.error?.contains(missing) == true)
        let row = try #require(try queue.entries().first { $0.record == .bug(2) })
        #expect(row.workerID == nil && row.attempts == 1 && row.lastError?.contains(missing) == true)
        #expect(try queue.entries().map(\.record) == [.bug(2)])
        #expect(try store.read { try $0.outputs(for: .bug(2)) }.filter { $0.kind == .list } == [])
    }
}
