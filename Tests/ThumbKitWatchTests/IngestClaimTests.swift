// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

@testable import ThumbKitCatalog
@testable import ThumbKitWatch

/// Runs `body` once, when an ingest reaches `phase` (a worker's moves between two steps of it).
private final class AtPhase: WatchCrashPoints {
    let phase: IngestPhase
    let body: @Sendable () -> Void

    init(_ phase: IngestPhase, _ body: @escaping @Sendable () -> Void) {
        self.phase = phase
        self.body = body
    }

    func reached(_ phase: IngestPhase) {
        if phase == self.phase { body() }
    }
}

/// An ingest builds its record as a fenced claim of its own (`BuildQueue.claimOwn`): a worker
/// running beside the watcher never builds the record again, a commit whose claim was lost
/// records nothing, and no queue row is left behind.
struct IngestClaimTests {
    /// A workspace with an inbox holding one bug and one food, and its ingestor.
    private static func inbox(_ backend: CatalogBackend) throws -> (TestWorkspace, CatalogStore, InboxIngestor) {
        let workspace = try TestWorkspace()
        try FileManager.default.createDirectory(
            atPath: workspace.path("inbox/foods/Snacks"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: workspace.path("inbox/bugs"), withIntermediateDirectories: true)
        try workspace.write("inbox/bugs/Moth.jpg", GeneratedImages.jpeg(seed: 4))
        try workspace.write("inbox/foods/Snacks/Chips.jpg", GeneratedImages.jpeg(seed: 5))
        let store = try workspace.store(backend: backend)
        let ingestor = InboxIngestor(
            inbox: workspace.path("inbox"), store: store, outputDirectory: workspace.path("out"))
        return (workspace, store, ingestor)
    }

    @Test(arguments: CatalogBackend.all) func anIngestLeavesNoQueueRowBehind(backend: CatalogBackend) throws {
        let (workspace, store, ingestor) = try Self.inbox(backend)
        defer { withExtendedLifetime(workspace) {} }
        #expect(ingestor.ingest("bugs/Moth.jpg").map(\.event) == [.ingested])
        #expect(ingestor.ingest("foods/Snacks/Chips.jpg").map(\.event) == [.ingested])
        #expect(try BuildQueue(store: store).entries() == [])
        #expect(try store.read { try $0.ingestedFiles() }.map(\.status) == [.imported, .imported])
    }

    /// An ingest's record change claims its record (`WriteLockMode.claim`): it runs beside a
    /// worker's fenced commit in flight (the shared lock), where it once waited for it, and
    /// still waits for an exclusive writer (planning, the sweep).
    @Test(.enabled(if: CatalogBackend.postgresEnabled))
    func anIngestRunsBesideASharedCommitAndWaitsForAnExclusiveWriter() throws {
        let (workspace, _, ingestor) = try Self.inbox(.postgres)
        let holder = try CatalogStore(location: try CatalogBackend.postgres.location(in: workspace))
        let beside = LockWaitProbe<[IngestEvent.Kind]>()
        let besideOutcome = try holder.write(mode: .shared) { tx in
            try beside.start(in: tx) { ingestor.ingest("bugs/Moth.jpg").map(\.event) }
        }
        #expect(besideOutcome == .ranThrough)
        #expect(try beside.joined() == [.ingested])
        let after = LockWaitProbe<[IngestEvent.Kind]>()
        let afterOutcome = try holder.write { tx in
            try after.start(in: tx) { ingestor.ingest("foods/Snacks/Chips.jpg").map(\.event) }
        }
        #expect(afterOutcome == .waited)
        #expect(try after.joined() == [.ingested])
        #expect(try BuildQueue(store: holder).entries() == [])
    }

    /// A worker's fenced commit locks the record's queue row, then writes the record (the
    /// source's hash); an ingest changing the same record under the shared lock locks that row
    /// first (`BuildQueue.lockRow`), so the two meet in one order: the ingest waits for the
    /// commit, and neither is failed as a deadlock (as both were, one of them, with the record
    /// changed before its row was locked).
    @Test(.enabled(if: CatalogBackend.postgresEnabled))
    func anIngestOfARecordBeingCommittedWaitsForTheCommitWithoutADeadlock() throws {
        let (workspace, _, ingestor) = try Self.inbox(.postgres)
        #expect(ingestor.ingest("bugs/Moth.jpg").map(\.event) == [.ingested])
        let holder = try CatalogStore(location: try CatalogBackend.postgres.location(in: workspace))
        let bug = try #require(try holder.read { try $0.bug(title: "Moth") })
        try holder.write { try $0.rate(bugID: bug.id, rating: 2) }  // queues the bug's row again
        let newPicture = GeneratedImages.jpeg(seed: 9)
        try workspace.write("inbox/bugs/Moth.jpg", newPicture)
        let probe = LockWaitProbe<[IngestEvent.Kind]>()
        let outcome = try holder.write(mode: .shared) { tx in
            let fence = "SELECT 1 FROM build_queue WHERE record_kind = 'bug' AND record_id = ? FOR UPDATE"
            #expect(try tx.db.queryFirst(fence, [.integer(bug.id)]) { $0.int(0) } == 1)
            let outcome = try probe.start(in: tx) { ingestor.ingest("bugs/Moth.jpg").map(\.event) }
            // The commit's hash update, while the ingest waits.
            let path = try #require(bug.image?.path)
            try tx.setImage(bugID: bug.id, image: ImageRef(path: path, sha256: String(repeating: "f", count: 64)))
            return outcome
        }
        #expect(outcome == .waited)
        #expect(try probe.joined() == [.ingested])
        #expect(try holder.read { try $0.bug(id: bug.id) }?.image?.sha256 == ContentHash.sha256(of: newPicture))
        #expect(try BuildQueue(store: holder).entries() == [])
    }

    @Test(arguments: CatalogBackend.all) func aSidecarsRatingLeavesNoQueueRowBehind(backend: CatalogBackend) throws {
        let (workspace, store, ingestor) = try Self.inbox(backend)
        #expect(ingestor.ingest("bugs/Moth.jpg").map(\.event) == [.ingested])
        try workspace.write("inbox/bugs/Moth.json", Array(#"{"rating": 4}"#.utf8))
        #expect(ingestor.process("bugs/Moth.json").map(\.event) == [.rated])
        #expect(try store.read { try $0.bug(title: "Moth") }?.rating.value == 4)
        #expect(try BuildQueue(store: store).entries() == [])
    }

    @Test(arguments: CatalogBackend.all)
    func aWorkerBesideTheIngestFindsNothingToClaim(backend: CatalogBackend) throws {
        var (workspace, store, ingestor) = try Self.inbox(backend)
        defer { withExtendedLifetime(workspace) {} }
        let queue = BuildQueue(store: store)
        let claimed = Locked<[BuildQueue.Claim]?>(nil)
        // Between the record's commit and its build, a worker asks for work.
        ingestor.crashPoints = AtPhase(.committed) {
            let claims = try? queue.claim(worker: "beside", limit: 10, lease: .seconds(30), now: Date())
            claimed.withLock { $0 = claims }
        }
        #expect(ingestor.ingest("bugs/Moth.jpg").map(\.event) == [.ingested])
        #expect(claimed.withLock { $0 } == [])
        #expect(try queue.entries() == [])
        let bug = try #require(try store.read { try $0.bug(title: "Moth") })
        #expect(try !store.outputs(for: bug.ref).isEmpty)
    }

    @Test(arguments: CatalogBackend.all) func theFenceRefusesTheCommitOfALostClaim(backend: CatalogBackend) throws {
        var (workspace, store, ingestor) = try Self.inbox(backend)
        let queue = BuildQueue(store: store)
        let taken = Locked<[BuildQueue.Claim]>([])
        // A first ingest makes the output folder the catalog's (a build removes nothing from a
        // folder it is only now claiming).
        #expect(ingestor.ingest("foods/Snacks/Chips.jpg").map(\.event) == [.ingested])
        // The ingest's lease runs out (a worker's clock a minute later) and a worker takes the
        // record before the ingest commits its build.
        ingestor.crashPoints = AtPhase(.committed) {
            let claims = (try? queue.claim(worker: "later", limit: 10, lease: .seconds(30), now: Date() + 60)) ?? []
            taken.withLock { $0 = claims }
        }
        let events = ingestor.ingest("bugs/Moth.jpg")
        #expect(events.map(\.event) == [.ingested])
        let bug = try #require(try store.read { try $0.bug(title: "Moth") })
        let claim = try #require(taken.withLock { $0 }.first)
        #expect(claim.record == bug.ref)
        // Nothing of the stale build was recorded, and the files it wrote are gone; the row is
        // the worker's still, under its claim.
        #expect(try store.outputs(for: bug.ref) == [])
        let files = (try? FileManager.default.subpathsOfDirectory(atPath: workspace.path("out/bugs"))) ?? []
        #expect(files.filter { $0.hasSuffix(".jpg") } == [])
        let entries = try queue.entries()
        #expect(entries.map(\.record) == [bug.ref])
        #expect(entries.first?.workerID == "later")
        #expect(entries.first?.claimSequence == claim.sequence)
        #expect(try store.read { try $0.ingestedFiles() }.map(\.status) == [.imported, .imported])
    }
}
