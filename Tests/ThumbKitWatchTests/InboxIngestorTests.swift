// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

@testable import ThumbKitCatalog
@testable import ThumbKitWatch

/// One inbox, catalog (on `backend`) and output folder in a temporary workspace.
private struct Inbox {
    let workspace: TestWorkspace
    let store: CatalogStore
    let ingestor: InboxIngestor

    init(_ backend: CatalogBackend, moveDone: Bool = false, outputIsAFile: Bool = false) throws {
        workspace = try TestWorkspace()
        try FileManager.default.createDirectory(atPath: workspace.path("inbox/bugs"), withIntermediateDirectories: true)
        if outputIsAFile { try workspace.write("out", text: "not a folder") }
        store = try workspace.store(backend: backend)
        ingestor = InboxIngestor(
            inbox: workspace.path("inbox"), store: store, outputDirectory: workspace.path("out"),
            moveDoneTo: moveDone ? workspace.path("done") : nil)
    }

    @discardableResult
    func drop(_ relative: String, _ bytes: [UInt8]) throws -> String { try workspace.write("inbox/" + relative, bytes) }

    func outputFiles(_ record: RecordRef) throws -> [String] {
        try store.outputs(for: record).map { workspace.path("out/" + $0.path) }
    }

    func rejectedNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: workspace.path("inbox/.rejected"))) ?? []).sorted()
    }
}

struct InboxIngestorTests {
    @Test(arguments: CatalogBackend.all) func aNewBugImageBecomesABugWithItsOutputs(backend: CatalogBackend) throws {
        let inbox = try Inbox(backend)
        try inbox.drop("bugs/Potato Bug.jpg", GeneratedImages.jpeg(seed: 1))
        let events = inbox.ingestor.ingest("bugs/Potato Bug.jpg")
        #expect(events.map(\.event) == [.ingested])
        let bug = try #require(try inbox.store.read { try $0.bug(title: "Potato Bug") })
        #expect(bug.rating == .zero)
        #expect(bug.image?.sha256 == ContentHash.sha256(of: GeneratedImages.jpeg(seed: 1)))
        let files = try inbox.outputFiles(bug.ref)
        #expect(!files.isEmpty)
        #expect(files.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        // The event's count is the commit's: the record's rows, not the strips also made.
        #expect(events.first?.outputs == files.count)
        let row = try inbox.store.read { try $0.ingestedFiles() }
        #expect(row.map(\.status) == [.imported])
        #expect(row.first?.record == bug.ref)
    }

    @Test(arguments: CatalogBackend.all) func theSidecarGivesANewBugItsRating(backend: CatalogBackend) throws {
        let inbox = try Inbox(backend)
        try inbox.drop("bugs/Moth.json", Array(#"{"rating": 3.5}"#.utf8))
        try inbox.drop("bugs/Moth.png", GeneratedImages.png(seed: 2))
        #expect(inbox.ingestor.ingest("bugs/Moth.png").map(\.event) == [.ingested])
        #expect(try inbox.store.read { try $0.bug(title: "Moth") }?.rating == Rating(exactly: 3.5))
    }

    @Test(arguments: CatalogBackend.all) func aSidecarChangedLaterRatesTheExistingBug(backend: CatalogBackend) throws {
        let inbox = try Inbox(backend)
        try inbox.drop("bugs/Moth.jpg", GeneratedImages.jpeg(seed: 2))
        _ = inbox.ingestor.ingest("bugs/Moth.jpg")
        try inbox.drop("bugs/Moth.json", Array(#"{"rating": 4}"#.utf8))
        #expect(inbox.ingestor.process("bugs/Moth.json").map(\.event) == [.rated])
        #expect(try inbox.store.read { try $0.bug(title: "Moth") }?.rating == Rating(exactly: 4))
        try inbox.drop("bugs/Moth.json", Array(#"{"rating": 7}"#.utf8))
        let bad = inbox.ingestor.process("bugs/Moth.json")
        #expect(bad.map(\.event) == [.failed])
        #expect(bad.first?.reason?.contains("rating 7") == true)
    }

    @Test(arguments: CatalogBackend.all) func aFoodImageCreatesItsCategory(backend: CatalogBackend) throws {
        let inbox = try Inbox(backend)
        try inbox.drop("foods/Pasta/Penne.jpg", GeneratedImages.jpeg(seed: 3))
        #expect(inbox.ingestor.ingest("foods/Pasta/Penne.jpg").map(\.event) == [.ingested])
        #expect(try inbox.store.categories().map(\.name) == ["Pasta"])
        #expect(try inbox.store.foods().map(\.name) == ["Penne"])
    }

    @Test(arguments: CatalogBackend.all) func theSameBytesAgainAreSkippedWithoutChangingAnything(
        backend: CatalogBackend
    ) throws {
        let inbox = try Inbox(backend)
        try inbox.drop("bugs/Moth.jpg", GeneratedImages.jpeg(seed: 4))
        _ = inbox.ingestor.ingest("bugs/Moth.jpg")
        let before = try inbox.store.read { try $0.bug(title: "Moth") }
        #expect(inbox.ingestor.ingest("bugs/Moth.jpg").isEmpty)  // Not written since: nothing to say.
        try inbox.drop("bugs/Moth.jpeg", GeneratedImages.jpeg(seed: 4))
        let duplicate = inbox.ingestor.ingest("bugs/Moth.jpeg")
        #expect(duplicate.map(\.event) == [.skipped])
        #expect(try inbox.store.read { try $0.bug(title: "Moth") } == before)
        let statuses = try inbox.store.read { try $0.ingestedFiles() }.map(\.status)
        #expect(statuses.sorted { $0.rawValue < $1.rawValue } == [.imported, .skipped])
    }

    @Test(arguments: CatalogBackend.all) func aNewVersionReplacesTheImageAndRegeneratesTheOutputs(
        backend: CatalogBackend
    ) throws {
        let inbox = try Inbox(backend)
        try inbox.drop("bugs/Moth.jpg", GeneratedImages.jpeg(seed: 5))
        _ = inbox.ingestor.ingest("bugs/Moth.jpg")
        let bug = try #require(try inbox.store.read { try $0.bug(title: "Moth") })
        try inbox.drop("bugs/Moth.jpg", GeneratedImages.jpeg(width: 80, height: 40, seed: 6))
        let events = inbox.ingestor.ingest("bugs/Moth.jpg")
        #expect(events.map(\.event) == [.ingested])
        let newSHA = ContentHash.sha256(of: GeneratedImages.jpeg(width: 80, height: 40, seed: 6))
        #expect(try inbox.store.read { try $0.bug(id: bug.id) }?.image?.sha256 == newSHA)
        let outputs = try inbox.store.outputs(for: bug.ref)
        #expect(!outputs.isEmpty)
        #expect(outputs.allSatisfy { $0.sourceSHA256 == newSHA })
        #expect(events.first?.outputs == outputs.count)
    }

    @Test(
        arguments: CatalogBackend.all,
        [
            ("bugs/Text.jpg", Array("hello, not an image".utf8), "not a PNG, JPEG, WebP, HEIC or AVIF file"),
            ("bugs/Empty.png", [], "empty file"),
            ("bugs/Cut.jpg", Array(GeneratedImages.jpeg(seed: 7).prefix(300)), nil),
            ("bugs/Signature.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], nil),
        ] as [(String, [UInt8], String?)])
    func aBadFileIsRejectedWithItsReasonAndTheCatalogIsUntouched(
        backend: CatalogBackend, file: (String, [UInt8], String?)
    ) throws {
        let (path, bytes, reasonPart) = file
        let inbox = try Inbox(backend)
        try inbox.drop(path, bytes)
        let events = inbox.ingestor.ingest(path)
        #expect(events.map(\.event) == [.rejected])
        let name = (path as NSString).lastPathComponent
        #expect(inbox.rejectedNames() == [name, name + ".error.txt"])
        let note = try String(
            contentsOfFile: inbox.workspace.path("inbox/.rejected/\(name).error.txt"), encoding: .utf8)
        let firstLine = note.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.hasPrefix("\(path): "))
        #expect(firstLine.count > path.count + 2)
        if let reasonPart { #expect(firstLine.contains(reasonPart)) }
        #expect(!FileManager.default.fileExists(atPath: inbox.workspace.path("inbox/" + path)))
        #expect(try inbox.store.bugs().isEmpty)
        #expect(try inbox.store.read { try $0.ingestedFiles() }.map(\.status) == [.failed])
    }

    @Test(arguments: CatalogBackend.all) func aRejectedNameThatIsTakenGetsANumber(backend: CatalogBackend) throws {
        let inbox = try Inbox(backend)
        for _ in 0..<2 {
            try inbox.drop("bugs/Bad.jpg", Array("junk \(UUID())".utf8))
            _ = inbox.ingestor.ingest("bugs/Bad.jpg")
        }
        #expect(inbox.rejectedNames() == ["Bad (2).jpg", "Bad (2).jpg.error.txt", "Bad.jpg", "Bad.jpg.error.txt"])
    }

    @Test(arguments: CatalogBackend.all) func aFailedBuildUndoesTheNewRecordAndRejectsTheFile(backend: CatalogBackend)
        throws
    {
        let inbox = try Inbox(backend, outputIsAFile: true)
        try inbox.drop("foods/Soup/Minestrone.jpg", GeneratedImages.jpeg(seed: 8))
        let events = inbox.ingestor.ingest("foods/Soup/Minestrone.jpg")
        #expect(events.map(\.event) == [.rejected])
        #expect(events.first?.reason?.hasPrefix("cannot make its outputs") == true)
        #expect(try inbox.store.foods().isEmpty)
        #expect(try inbox.store.categories().isEmpty)
        #expect(try inbox.store.read { try $0.outputs() }.isEmpty)
        #expect(inbox.rejectedNames() == ["Minestrone.jpg", "Minestrone.jpg.error.txt"])
    }

    @Test(arguments: CatalogBackend.all) func moveDoneMovesTheSourceAndTheRecordPointsThere(backend: CatalogBackend)
        throws
    {
        let inbox = try Inbox(backend, moveDone: true)
        try inbox.drop("foods/Pasta/Penne.jpg", GeneratedImages.jpeg(seed: 9))
        let events = inbox.ingestor.ingest("foods/Pasta/Penne.jpg")
        #expect(events.map(\.event) == [.ingested])
        let moved = inbox.workspace.path("done/foods/Pasta/Penne.jpg")
        #expect(FileManager.default.fileExists(atPath: moved))
        #expect(!FileManager.default.fileExists(atPath: inbox.workspace.path("inbox/foods/Pasta/Penne.jpg")))
        #expect(try inbox.store.foods().first?.image?.path == moved)
    }

    @Test(arguments: CatalogBackend.all) func anIngestLeftPendingByACrashIsRedoneWhenItsFileIsStillThere(
        backend: CatalogBackend
    ) throws {
        let inbox = try Inbox(backend)
        let bytes = GeneratedImages.jpeg(seed: 10)
        try inbox.drop("bugs/Moth.jpg", bytes)
        let source = inbox.workspace.path("inbox/bugs/Moth.jpg")
        let sha = ContentHash.sha256(of: bytes)
        // The state a crash after step 4 leaves: the record exists, its row is pending, no outputs.
        try Self.leavePending(inbox, bug: "Moth", source: source, sha: sha)
        #expect(inbox.ingestor.recoverPending().isEmpty)  // The file is there: the scan redoes it.
        #expect(inbox.ingestor.ingest("bugs/Moth.jpg").map(\.event) == [.ingested])
        #expect(try inbox.store.bugs().count == 1)
        #expect(try inbox.store.read { try $0.ingestedFiles() }.map(\.status) == [.imported])
        let bug = try #require(try inbox.store.bugs().first)
        #expect(!(try inbox.store.outputs(for: bug.ref)).isEmpty)
    }

    @Test(arguments: CatalogBackend.all) func anIngestLeftPendingWhoseFileVanishedIsUndone(backend: CatalogBackend)
        throws
    {
        let inbox = try Inbox(backend)
        let source = inbox.workspace.path("inbox/bugs/Gone.jpg")
        let sha = ContentHash.sha256(of: GeneratedImages.jpeg(seed: 11))
        try Self.leavePending(inbox, bug: "Gone", source: source, sha: sha)
        let events = inbox.ingestor.recoverPending()
        #expect(events.map(\.event) == [.recovered])
        #expect(try inbox.store.bugs().isEmpty)
        #expect(try inbox.store.read { try $0.ingestedFiles() }.map(\.status) == [.failed])
    }

    /// An undo that gives a record back its previous image rebuilds it under a claim taken with
    /// the restore: no queue row is left for a worker to build it again.
    @Test(arguments: CatalogBackend.all) func anUndoThatRestoresThePreviousImageLeavesNoQueueRow(
        backend: CatalogBackend
    ) throws {
        let inbox = try Inbox(backend)
        try inbox.drop("bugs/Moth.jpg", GeneratedImages.jpeg(seed: 12))
        #expect(inbox.ingestor.ingest("bugs/Moth.jpg").map(\.event) == [.ingested])
        let before = try #require(try inbox.store.bugs().first)
        // A second picture of the moth, left pending by a crash, whose file then vanished.
        let source = inbox.workspace.path("inbox/bugs/Moth.png")
        let sha = ContentHash.sha256(of: GeneratedImages.jpeg(seed: 13))
        try Self.leavePending(inbox, bug: "Moth", source: source, sha: sha)
        #expect(inbox.ingestor.recoverPending().map(\.event) == [.recovered])
        #expect(try inbox.store.bugs().first?.image == before.image)
        #expect(try BuildQueue(store: inbox.store).entries() == [])
        #expect(try consistencyProblems(store: inbox.store, outputDirectory: inbox.workspace.path("out")) == [])
    }

    /// The state a crash after step 4 leaves: the bug `title` changed to the picture at
    /// `source`, its ingest row pending, no outputs.
    private static func leavePending(_ inbox: Inbox, bug title: String, source: String, sha: String) throws {
        try inbox.store.write { tx in
            let change = try InboxIngestor.apply(
                .bug(title: title), image: ImageRef(path: source, sha256: sha), rating: nil, pendingUndo: nil,
                likelyNew: false, queue: BuildQueue(store: inbox.store), in: tx)
            try tx.recordIngest(
                path: source, sha256: sha, record: change.record.ref, status: .pending, reason: change.undo.reasonText)
        }
    }

    /// The look-up before the transaction found no record, but another writer added it before
    /// the transaction began: the insert meets the name's conflict (the transaction stays
    /// usable, also on PostgreSQL) and the record is updated, with undo data to restore it.
    @Test(arguments: CatalogBackend.all) func aRecordAddedAfterTheLookUpIsUpdatedNotRefused(
        backend: CatalogBackend
    ) throws {
        let inbox = try Inbox(backend)
        let old = ImageRef(path: "/old/moth.png", sha256: String(repeating: "a", count: 64))
        let new = ImageRef(path: "/new/moth.png", sha256: String(repeating: "b", count: 64))
        let (bug, food) = try inbox.store.write { tx in
            let category = try tx.addCategory("Cakes")
            return (
                try tx.addBug(title: "Moth", rating: Rating(exactly: 2)!, image: old),
                try tx.addFood(in: category, name: "Pie", image: old)
            )
        }
        let queue = BuildQueue(store: inbox.store)
        let (bugChange, foodChange, fresh) = try inbox.store.write { tx in
            (
                try InboxIngestor.apply(
                    .bug(title: "Moth"), image: new, rating: nil, pendingUndo: nil, likelyNew: true, queue: queue,
                    in: tx),
                try InboxIngestor.apply(
                    .food(category: "Cakes", name: "Pie"), image: new, rating: nil, pendingUndo: nil, likelyNew: true,
                    queue: queue, in: tx),
                try InboxIngestor.apply(
                    .food(category: "Cakes", name: "Tart"), image: new, rating: nil, pendingUndo: nil,
                    likelyNew: true, queue: queue, in: tx)
            )
        }
        #expect(bugChange.record.ref == bug.ref && !bugChange.record.created)
        #expect(bugChange.undo == IngestUndo(created: false, image: old, rating: 2))
        #expect(foodChange.record.ref == food.ref && !foodChange.record.created)
        #expect(foodChange.undo == IngestUndo(created: false, image: old))
        #expect(fresh.record.created && fresh.undo == IngestUndo(created: true))
        #expect(try inbox.store.read { try $0.bug(id: bug.id) }?.image == new)
        #expect(try inbox.store.read { try $0.food(id: food.id) }?.image == new)
        #expect(try inbox.store.read { try $0.food(category: "Cakes", name: "Tart") }?.image == new)
    }

    @Test func undoDataSurvivesTheTripThroughThePendingRow() {
        let undo = IngestUndo(
            created: false, image: ImageRef(path: "/in/bugs/a b.jpg", sha256: String(repeating: "a", count: 64)),
            rating: 2.5)
        #expect(IngestUndo(reasonText: undo.reasonText) == undo)
        #expect(IngestUndo(reasonText: "not undo data") == nil)
    }
}

/// A watcher killed inside `RejectedFolder.reject`, after the move and before the note's rename,
/// leaves the file in `.rejected/` without its note and the note's temporary file beside it.
struct RejectedNoteRepairTests {
    @Test(arguments: CatalogBackend.all) func aRestartWritesTheMissingNoteFromTheCatalogAndClearsTheTemporary(
        backend: CatalogBackend
    ) throws {
        let inbox = try Inbox(backend)
        let bytes = Array("not an image".utf8)
        try inbox.drop("bugs/Cut.jpg", bytes)
        #expect(inbox.ingestor.ingest("bugs/Cut.jpg").map(\.event) == [.rejected])
        let folder = inbox.workspace.path("inbox/.rejected")
        let note = try String(contentsOfFile: folder + "/Cut.jpg.error.txt", encoding: .utf8)
        // Undo the note's rename, as a kill before it would have left things.
        try FileManager.default.removeItem(atPath: folder + "/Cut.jpg.error.txt")
        try Data(note.utf8).write(to: URL(fileURLWithPath: folder + "/.Cut.jpg.error.txt.tmp-2147483646-1"))
        // And a file moved here whose failure the catalog never saw.
        try Data("stray".utf8).write(to: URL(fileURLWithPath: folder + "/Stray.png"))

        let events = inbox.ingestor.repairRejectedNotes()
        #expect(events.map(\.event) == [.recovered, .recovered])
        #expect(inbox.rejectedNames() == ["Cut.jpg", "Cut.jpg.error.txt", "Stray.png", "Stray.png.error.txt"])
        let repaired = try String(contentsOfFile: folder + "/Cut.jpg.error.txt", encoding: .utf8)
        // The same first lines as the note the interrupted reject was writing.
        #expect(repaired.split(separator: "\n").prefix(2) == note.split(separator: "\n").prefix(2))
        #expect(repaired.hasPrefix("bugs/Cut.jpg: "))
        let stray = try String(contentsOfFile: folder + "/Stray.png.error.txt", encoding: .utf8)
        #expect(stray.hasPrefix("Stray.png: the reason was lost"))
        // A second start finds nothing to do.
        #expect(inbox.ingestor.repairRejectedNotes().isEmpty)
    }
}

/// The watch folder checks a new file and makes its outputs from one decode (issue 13): the
/// check renders the outputs, the build writes that render; a progressive JPEG is the one
/// exception (`PreparedImage`).
struct InboxSingleDecodeTests {
    static func progressiveJPEG(width: Int = 640, height: Int = 480, seed: Int) throws -> [UInt8] {
        try ImageEncoders.encode(
            GeneratedImages.pixels(width: width, height: height, seed: seed),
            options: EncodeOptions(format: .jpeg, quality: 90, progressive: true), path: "progressive.jpg")
    }

    /// Each kind of file the check renders (or, progressive, only checks): the outputs written
    /// from the check's render are the bytes a build of the record makes from the file.
    @Test(arguments: ["baseline.jpg", "plain.png", "progressive.jpg"])
    func theOutputsMadeFromTheChecksRenderAreTheBytesABuildMakes(name: String) throws {
        let bytes =
            switch name {
            case "baseline.jpg": GeneratedImages.jpeg(width: 640, height: 480, seed: 11)
            case "plain.png": GeneratedImages.png(width: 320, height: 240, seed: 12)
            default: try Self.progressiveJPEG(seed: 13)
            }
        let inbox = try Inbox(.sqlite)
        try inbox.drop("bugs/\(name)", bytes)
        #expect(inbox.ingestor.ingest("bugs/\(name)").map(\.event) == [.ingested])
        let bug = try #require(try inbox.store.bugs().first)
        let files = try inbox.outputFiles(bug.ref)
        #expect(files.count >= 2)
        let written = try files.map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))) }
        for file in files { try FileManager.default.removeItem(atPath: file) }
        let rebuilt = inbox.ingestor.builder.build(only: [bug.ref])
        #expect(rebuilt.failed == 0, "\(rebuilt.failures)")
        #expect(rebuilt.made >= files.count)
        let remade = try files.map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))) }
        #expect(remade == written)
    }

    /// The build takes the prepared render and does not decode the source again: here the
    /// source is not even an image, and the build still succeeds from the render of another.
    @Test func theBuildWritesThePreparedRenderWithoutDecodingTheSource() throws {
        let inbox = try Inbox(.sqlite)
        let junk = Array("not an image, with the hash the render claims".utf8)
        let path = try inbox.workspace.write("pictures/junk.jpg", junk)
        let sha = ContentHash.sha256(of: junk)
        let bug = try inbox.store.write { tx in
            try tx.addBug(title: "Stand-in", image: ImageRef(path: path, sha256: sha)).ref
        }
        let builder = inbox.ingestor.builder
        let real = try ImageSource(GeneratedImages.jpeg(width: 200, height: 150, seed: 14), path: "real.jpg")
        let prepared = try #require(try builder.prepare(real, sha256: sha, for: .bug))
        let withoutRender = builder.build(only: [bug])
        #expect(withoutRender.failed == 1)
        let report = builder.build(only: [bug], prepared: prepared)
        #expect(report.failed == 0, "\(report.failures)")
        #expect(report.made >= prepared.images.count)
        let outputs = try inbox.outputFiles(bug)
        #expect(outputs.count >= prepared.images.count)
        #expect(outputs.allSatisfy { FileManager.default.fileExists(atPath: $0) })
    }

    /// A render for other bytes, or for other variants, is not used.
    @Test func aRenderOfOtherBytesOrOtherVariantsIsNotUsed() throws {
        let inbox = try Inbox(.sqlite)
        let source = try ImageSource(GeneratedImages.jpeg(width: 200, height: 150, seed: 15), path: "a.jpg")
        let prepared = try #require(try inbox.ingestor.builder.prepare(source, sha256: "aa", for: .bug))
        #expect(prepared.images(for: prepared.variants, sha256: "aa") != nil)
        #expect(prepared.images(for: prepared.variants, sha256: "bb") == nil)
        #expect(prepared.images(for: Array(prepared.variants.dropFirst()), sha256: "aa") == nil)
    }

    /// The render is the check: a JPEG cut short in its entropy data (libjpeg only warns and
    /// pads with grey) is rejected before the catalog is touched, baseline or progressive.
    @Test(arguments: [false, true]) func aJPEGCutShortIsStillRejectedBeforeTheCatalogIsTouched(progressive: Bool)
        throws
    {
        let whole =
            progressive ? try Self.progressiveJPEG(seed: 16) : GeneratedImages.jpeg(width: 640, height: 480, seed: 16)
        let cut = Array(whole.prefix(whole.count * 2 / 3))
        let inbox = try Inbox(.sqlite)
        if progressive {
            #expect(try inbox.ingestor.builder.prepare(ImageSource(whole, path: "p.jpg"), sha256: "", for: .bug) == nil)
        }
        try inbox.drop("bugs/Cut.jpg", cut)
        let events = inbox.ingestor.ingest("bugs/Cut.jpg")
        #expect(events.map(\.event) == [.rejected])
        #expect(events.first?.reason?.contains("cannot make its outputs") == false)
        #expect(try inbox.store.bugs().isEmpty)
        #expect(try inbox.store.read { try $0.ingestedFiles() }.map(\.status) == [.failed])
    }
}
