// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

@testable import ThumbKitCatalog
@testable import ThumbKitWatch

#if canImport(Glibc)
    import Glibc
#endif

/// `--move-done` never replaces anything in the done folder: not a file already there, not a
/// link, not a file with the very same bytes, and not one that appears between choosing the name
/// and moving the file.
struct MoveDoneSafetyTests {
    /// At the ingest's `committed` point (the name is chosen, the file not yet moved), writes
    /// someone else's file at every name the move could take.
    private final class Planter: WatchCrashPoints {
        let paths: [String]
        let planted = Mutex(false)

        init(_ paths: [String]) { self.paths = paths }

        func reached(_ phase: IngestPhase) {
            guard phase == .committed else { return }
            for path in paths { try? FileIO.writeAtomically(Array("planted: \(path)".utf8), to: path) }
            planted.withLock { $0 = true }
        }
    }

    private static func ingestor(_ workspace: TestWorkspace, _ store: CatalogStore) -> InboxIngestor {
        InboxIngestor(
            inbox: workspace.path("inbox"), store: store, outputDirectory: workspace.path("out"),
            moveDoneTo: workspace.path("done"))
    }

    @Test(arguments: CatalogBackend.all) func filesAndLinksAlreadyInTheDoneFolderAreLeftAlone(backend: CatalogBackend)
        throws
    {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let bytes = GeneratedImages.jpeg(seed: 21)
        let short = String(ContentHash.sha256(of: bytes).prefix(12))
        let plain = try workspace.write("done/foods/Pasta/Penne.jpg", Array("someone's Penne".utf8))
        let hashed = try workspace.write("done/foods/Pasta/Penne.\(short).jpg", Array("someone's hashed".utf8))
        let target = try workspace.write("elsewhere.txt", Array("a link's target".utf8))
        let linked = workspace.path("done/foods/Pasta/Penne.\(short)-2.jpg")
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: target)
        try workspace.write("inbox/foods/Pasta/Penne.jpg", bytes)

        let events = Self.ingestor(workspace, store).ingest("foods/Pasta/Penne.jpg")
        #expect(events.map(\.event) == [.ingested], "\(events.map(\.text))")
        let moved = workspace.path("done/foods/Pasta/Penne.\(short)-3.jpg")
        #expect(events.first?.movedTo == moved)
        #expect(try FileIO.read(moved, maxBytes: 1 << 20) == bytes)
        #expect(try FileIO.read(plain, maxBytes: 100) == Array("someone's Penne".utf8))
        #expect(try FileIO.read(hashed, maxBytes: 100) == Array("someone's hashed".utf8))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: linked) == target)
        #expect(try FileIO.read(target, maxBytes: 100) == Array("a link's target".utf8))
        #expect(try store.foods().first?.image?.path == moved)
    }

    @Test(arguments: CatalogBackend.all) func aFileWithTheSameBytesIsNotReplacedEither(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let bytes = GeneratedImages.jpeg(seed: 22)
        let existing = try workspace.write("done/bugs/Moth.jpg", bytes)
        let before = try #require(FileStamp.of(existing))
        try workspace.write("inbox/bugs/Moth.jpg", bytes)

        let events = Self.ingestor(workspace, store).ingest("bugs/Moth.jpg")
        #expect(events.map(\.event) == [.ingested], "\(events.map(\.text))")
        #expect(FileStamp.of(existing) == before)  // The same inode, untouched.
        let moved = try #require(events.first?.movedTo)
        #expect(moved != existing)
        #expect(try FileIO.read(moved, maxBytes: 1 << 20) == bytes)
    }

    @Test(arguments: CatalogBackend.all) func aFileThatAppearsBeforeTheMoveIsKeptAndTheIngestUndone(
        backend: CatalogBackend
    ) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let bytes = GeneratedImages.jpeg(seed: 23)
        let short = String(ContentHash.sha256(of: bytes).prefix(12))
        let source = try workspace.write("inbox/bugs/Moth.jpg", bytes)
        let candidates = [workspace.path("done/bugs/Moth.jpg"), workspace.path("done/bugs/Moth.\(short).jpg")]
        try FileManager.default.createDirectory(atPath: workspace.path("done/bugs"), withIntermediateDirectories: true)
        let planter = Planter(candidates)
        var ingestor = Self.ingestor(workspace, store)
        ingestor.crashPoints = planter

        let events = ingestor.ingest("bugs/Moth.jpg")
        #expect(planter.planted.withLock { $0 })
        #expect(events.map(\.event).contains(.failed), "\(events.map(\.text))")
        #expect(events.contains { $0.reason?.contains("taken meanwhile") == true }, "\(events.map(\.text))")
        for path in candidates {
            #expect(try FileIO.read(path, maxBytes: 200) == Array("planted: \(path)".utf8))
        }
        #expect(try FileIO.read(source, maxBytes: 1 << 20) == bytes)  // Still in the inbox.
        #expect(try store.bugs().isEmpty)  // The record change is undone.
    }

    @Test func everyNameTakenFailsWithoutMovingAnything() throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: .sqlite)
        let bytes = GeneratedImages.jpeg(seed: 24)
        let short = String(ContentHash.sha256(of: bytes).prefix(12))
        try workspace.write("done/bugs/Moth.jpg", Array("x".utf8))
        try workspace.write("done/bugs/Moth.\(short).jpg", Array("x".utf8))
        for number in 2...100 { try workspace.write("done/bugs/Moth.\(short)-\(number).jpg", Array("x".utf8)) }
        let source = try workspace.write("inbox/bugs/Moth.jpg", bytes)

        let events = Self.ingestor(workspace, store).ingest("bugs/Moth.jpg")
        #expect(events.map(\.event) == [.failed], "\(events.map(\.text))")
        #expect(events.first?.reason?.contains("every name tried was taken") == true)
        #expect(try FileIO.read(source, maxBytes: 1 << 20) == bytes)
        #expect(try store.bugs().isEmpty)
    }
}
