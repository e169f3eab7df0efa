// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

@testable import ThumbKitCatalog
@testable import ThumbKitWatch

/// The watch loop in-process: bounded pending set, polling, stop requests, notices; with the
/// catalog on either backend where it is what the test looks at.
struct WatchSessionTests {
    /// Two tiny recipes, so each ingest costs next to nothing.
    private static let recipes: RecipeBook = {
        do {
            return try RecipeBook(recipes: [
                Recipe(name: "bug-list", recordKind: .bug, outputKind: .list, width: 8, height: 8, scales: [1]),
                Recipe(name: "food-list", recordKind: .food, outputKind: .list, width: 8, height: 8, scales: [1]),
            ])
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    private final class Log: Sendable {
        /// Observed, so a test can wait for the event it asserts on (each append wakes it).
        let events = Observed<[IngestEvent]>([])
        /// A copy made under the lock (`map`, not the array itself): a shared buffer would be
        /// read here while the session's next append decides, from its reference count, whether
        /// it may write in place, which ThreadSanitizer reports as a race.
        var all: [IngestEvent] { events.read { $0.map { $0 } } }
        func paths(_ kind: IngestEvent.Kind) -> [String] { all.filter { $0.event == kind }.compactMap(\.path) }
    }

    private func session(
        _ workspace: TestWorkspace, _ options: WatchOptions, store: CatalogStore, control: WatchControl, log: Log
    ) throws -> WatchSession {
        let ingestor = InboxIngestor(
            inbox: workspace.path("inbox"), store: store, outputDirectory: workspace.path("out"), recipes: Self.recipes)
        return try WatchSession(ingestor: ingestor, options: options, control: control) { event in
            log.events.update { $0.append(event) }
        }
    }

    @Test(arguments: CatalogBackend.all) func onceModeHandlesEveryFileEvenPastThePendingLimit(backend: CatalogBackend)
        throws
    {
        let workspace = try TestWorkspace()
        for index in 1...12 {
            try workspace.write("inbox/bugs/Bug \(index).jpg", GeneratedImages.jpeg(width: 16, height: 12, seed: index))
        }
        let store = try workspace.store(backend: backend)
        let log = Log()
        let options = WatchOptions(settleSeconds: 0, jobs: 2, once: true, maxPending: 3)
        let summary = try session(workspace, options, store: store, control: WatchControl(), log: log).run()
        #expect(summary.ingested == 12)
        #expect(try store.bugs().count == 12)
        #expect(log.all.first?.event == .watching)
        #expect(log.all.last?.event == .stopped)
    }

    /// Each ingest builds one record and never walks the output folder, so the session clears
    /// dead writers' temporary files once, when it starts; the ingests themselves leave a new
    /// one alone.
    @Test(arguments: CatalogBackend.all) func aSessionRemovesStrayTemporariesWhenItStartsAndItsIngestsDoNot(
        backend: CatalogBackend
    ) throws {
        let workspace = try TestWorkspace()
        try workspace.write("inbox/bugs/Moth 1.jpg", GeneratedImages.jpeg(width: 16, height: 12, seed: 1))
        let store = try workspace.store(backend: backend)
        let options = WatchOptions(settleSeconds: 0, jobs: 1, once: true)
        #expect(try session(workspace, options, store: store, control: WatchControl(), log: Log()).run().ingested == 1)
        let stray = "out/bugs/.bug-list.tmp-0-1"  // Process id 0 is never a writer.
        try workspace.write(stray, text: "left by a killed writer")
        try workspace.write("inbox/bugs/Moth 2.jpg", GeneratedImages.jpeg(width: 16, height: 12, seed: 2))
        let ingestor = InboxIngestor(
            inbox: workspace.path("inbox"), store: store, outputDirectory: workspace.path("out"), recipes: Self.recipes)
        #expect(ingestor.ingest("bugs/Moth 2.jpg").first?.event == .ingested)
        #expect(FileManager.default.fileExists(atPath: workspace.path(stray)))
        #expect(try session(workspace, options, store: store, control: WatchControl(), log: Log()).run().ingested == 0)
        #expect(!FileManager.default.fileExists(atPath: workspace.path(stray)))
    }

    @Test(arguments: CatalogBackend.all) func aRestartScanOfHandledFilesIsSilent(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        for index in 1...3 {
            try workspace.write(
                "inbox/foods/Soup/Soup \(index).png", GeneratedImages.png(width: 16, height: 12, seed: index))
        }
        let store = try workspace.store(backend: backend)
        let options = WatchOptions(settleSeconds: 0, jobs: 1, once: true)
        let first = try session(workspace, options, store: store, control: WatchControl(), log: Log()).run()
        #expect(first.ingested == 3)
        let log = Log()
        let second = try session(workspace, options, store: store, control: WatchControl(), log: log).run()
        #expect(second == WatchSession.Summary())
        #expect(log.all.map(\.event) == [.watching, .stopped])
    }

    @Test func filesOutsideTheLayoutAreNoticedOnceButTheCatalogInsideTheInboxIsNot() throws {
        let workspace = try TestWorkspace()
        try workspace.write("inbox/notes.txt", text: "hello")
        try workspace.write("inbox/misc/Moth.jpg", GeneratedImages.jpeg(seed: 1))
        let store = try CatalogStore(path: workspace.path("inbox/catalog.sqlite"))
        let log = Log()
        let options = WatchOptions(settleSeconds: 0, once: true, ownPaths: [workspace.path("inbox/catalog.sqlite")])
        _ = try session(workspace, options, store: store, control: WatchControl(), log: log).run()
        let inbox = workspace.path("inbox")
        #expect(log.paths(.ignored).sorted() == [inbox + "/misc", inbox + "/notes.txt"])
    }

    @Test(arguments: CatalogBackend.all) func pollingFindsAFileDroppedAfterTheStartAndAStopEndsTheRun(
        backend: CatalogBackend
    ) throws {
        let workspace = try TestWorkspace()
        try FileManager.default.createDirectory(atPath: workspace.path("inbox"), withIntermediateDirectories: true)
        let store = try workspace.store(backend: backend)
        let log = Log()
        let control = try WatchControl()
        let session = try session(
            workspace, WatchOptions(settleSeconds: 0.05, pollSeconds: 0.05), store: store, control: control, log: log)
        let finished = DispatchSemaphore(value: 0)
        let result = Locked<WatchSession.Summary?>(nil)
        nonisolated(unsafe) let running = session  // Handed to the thread and used only there from now on.
        Thread {
            let summary = running.run()
            result.withLock { $0 = summary }
            finished.signal()
        }.start()

        try workspace.write("inbox/bugs/Moth.jpg", GeneratedImages.jpeg(seed: 3))
        let ingested = log.events.wait(timeout: 20) { events in
            events.contains { $0.event == .ingested && $0.path != nil }
        }
        #expect(ingested, "no file ingested within 20 s: \(log.all.map(\.text))")
        control.requestStop()
        #expect(finished.wait(timeout: .now() + 20) == .success)
        #expect(log.paths(.ingested) == [workspace.path("inbox/bugs/Moth.jpg")], "\(log.all.map(\.text))")
        #expect(result.withLock { $0 }?.ingested == 1)
        #expect(log.all.map(\.event).suffix(2) == [.stopping, .stopped])
    }
}
