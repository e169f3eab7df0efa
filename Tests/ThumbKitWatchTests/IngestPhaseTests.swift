// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

@testable import ThumbKitCatalog
@testable import ThumbKitWatch

/// A ``WatchCrashPoints`` that notes each phase with what the catalog and the disk hold at that
/// moment, in place of the real binary's kill (the `--_crash-at` kill tests in ThumbKitCLITests).
private final class PhaseRecorder: WatchCrashPoints {
    let notes = Locked<[String]>([])
    let look: @Sendable (IngestPhase) -> String

    init(look: @escaping @Sendable (IngestPhase) -> String) { self.look = look }

    func reached(_ phase: IngestPhase) {
        let seen = look(phase)
        notes.withLock { $0.append("\(phase.rawValue): \(seen)") }
    }
}

/// The ingestor tells its crash points about each phase at the moment the kill tests rely on:
/// `committed` with the row `pending` and no output yet, `moved` with the source gone from the
/// inbox, `built` with the outputs made and the row still `pending`; on either backend.
struct IngestPhaseTests {
    @Test(arguments: CatalogBackend.all, [false, true])
    func eachPhaseIsReachedOnceInOrderWithTheStateItNames(backend: CatalogBackend, moveDone: Bool) throws {
        let workspace = try TestWorkspace()
        try FileManager.default.createDirectory(atPath: workspace.path("inbox/bugs"), withIntermediateDirectories: true)
        let store = try workspace.store(backend: backend)
        let source = try workspace.write("inbox/bugs/Moth.jpg", GeneratedImages.jpeg(seed: 4))
        var ingestor = InboxIngestor(
            inbox: workspace.path("inbox"), store: store, outputDirectory: workspace.path("out"),
            moveDoneTo: moveDone ? workspace.path("done") : nil)
        let outFolder = workspace.path("out")
        let recorder = PhaseRecorder { _ in
            let status = (try? store.read { try $0.ingestedFiles() })?.map(\.status.rawValue) ?? []
            let outputs = ((try? FileManager.default.subpathsOfDirectory(atPath: outFolder)) ?? []).count
            let inInbox = FileManager.default.fileExists(atPath: source)
            return
                "rows \(status), \(outputs > 0 ? "outputs" : "no outputs"), source \(inInbox ? "in" : "out of") inbox"
        }
        ingestor.crashPoints = recorder

        #expect(ingestor.ingest("bugs/Moth.jpg").map(\.event) == [.ingested])
        let expected =
            ["committed: rows [\"pending\"], no outputs, source in inbox"]
            + (moveDone ? ["moved: rows [\"pending\"], no outputs, source out of inbox"] : [])
            + ["built: rows [\"pending\"], outputs, source \(moveDone ? "out of" : "in") inbox"]
        #expect(recorder.notes.withLock { $0 } == expected)
        #expect(try store.read { try $0.ingestedFiles() }.map(\.status) == [.imported])
    }

    @Test(arguments: CatalogBackend.all) func aRejectedFileReachesNoPhase(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        try FileManager.default.createDirectory(atPath: workspace.path("inbox/bugs"), withIntermediateDirectories: true)
        try workspace.write("inbox/bugs/Broken.jpg", Array("not a picture".utf8))
        var ingestor = InboxIngestor(
            inbox: workspace.path("inbox"), store: try workspace.store(backend: backend),
            outputDirectory: workspace.path("out"))
        let recorder = PhaseRecorder { _ in "" }
        ingestor.crashPoints = recorder
        #expect(ingestor.ingest("bugs/Broken.jpg").map(\.event) == [.rejected])
        #expect(recorder.notes.withLock { $0 } == [])
    }
}
