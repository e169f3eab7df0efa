// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

@testable import ThumbKitCatalog
@testable import ThumbKitWatch

#if canImport(Glibc)
    import Glibc
#endif

/// Inbox names at the edges: Unicode normalisation, bytes that are not UTF-8, names near the
/// 255-byte limit.
struct InboxEdgeNameTests {
    /// `Café` with U+00E9, and with `e` + U+0301: equal Swift strings, two different files.
    static let nfc = "bugs/Caf\u{E9}.jpg"
    static let nfd = "bugs/Cafe\u{301}.jpg"

    private static let recipes: RecipeBook = {
        do {
            return try RecipeBook(recipes: [
                Recipe(name: "bug-list", recordKind: .bug, outputKind: .list, width: 8, height: 8, scales: [1])
            ])
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    private final class Log: Sendable {
        let events = Locked<[IngestEvent]>([])
        var all: [IngestEvent] { events.withLock { $0.map { $0 } } }
    }

    /// One `--once` run over `workspace/inbox`.
    private func runOnce(_ workspace: TestWorkspace, store: CatalogStore) throws -> (
        WatchSession.Summary, [IngestEvent]
    ) {
        let log = Log()
        let ingestor = InboxIngestor(
            inbox: workspace.path("inbox"), store: store, outputDirectory: workspace.path("out"), recipes: Self.recipes)
        let session = try WatchSession(
            ingestor: ingestor, options: WatchOptions(settleSeconds: 0, jobs: 1, once: true), control: WatchControl()
        ) { event in log.events.withLock { $0.append(event) } }
        return (session.run(), log.all)
    }

    @Test func theSettleTrackerKeepsTwoNormalisationsOfOneNameApart() {
        #expect(Self.nfc == Self.nfd)  // Why String keys fail.
        var tracker = SettleTracker(settleSeconds: 0, capacity: 10)
        tracker.touch(Self.nfc, now: 0)
        tracker.touch(Self.nfd, now: 0)
        #expect(tracker.count == 2)
        let stamp = FileStamp(device: 1, inode: 1, size: 1, modified: 1, changed: 1)
        _ = tracker.observe(Self.nfc, stamp: stamp, now: 0)
        _ = tracker.observe(Self.nfd, stamp: stamp, now: 0)
        let ready = tracker.readyPaths().map { Array($0.path.utf8) }
        #expect(ready == [Array(Self.nfc.utf8), Array(Self.nfd.utf8)])
        tracker.remove(Self.nfc)
        #expect(tracker.count == 1)
        #expect(tracker.readyPaths().map { Array($0.path.utf8) } == [Array(Self.nfd.utf8)])
    }

    @Test(arguments: CatalogBackend.all) func bothNormalisationsOfOneNameAreIngested(backend: CatalogBackend) throws {
        let workspace = try TestWorkspace()
        try workspace.write("inbox/" + Self.nfc, GeneratedImages.jpeg(width: 16, height: 12, seed: 1))
        try workspace.write("inbox/" + Self.nfd, GeneratedImages.jpeg(width: 16, height: 12, seed: 2))
        let names = try FileManager.default.contentsOfDirectory(atPath: workspace.path("inbox/bugs"))
        try #require(names.count == 2, "the file system merged the two names: \(names)")
        let store = try workspace.store(backend: backend)
        let (summary, events) = try runOnce(workspace, store: store)
        #expect(summary.ingested == 2, "\(events.map(\.text))")
        let titles = try store.bugs().map { Array($0.title.utf8) }
        #expect(Set(titles) == [Array("Caf\u{E9}".utf8), Array("Cafe\u{301}".utf8)])
    }

    /// Writes `content` to the file whose path is exactly `path` (bytes, not text), making its
    /// folder first: the system calls take the bytes themselves, not a Swift path.
    private func writeRaw(_ path: [UInt8], _ content: [UInt8]) throws {
        func cString(_ bytes: [UInt8]) -> [CChar] { bytes.map { CChar(bitPattern: $0) } + [0] }
        if let slash = path.lastIndex(of: 0x2F) {
            let folder = Array(path[..<slash])
            _ = cString(folder).withUnsafeBufferPointer { mkdir($0.baseAddress!, 0o755) }
        }
        let fd = cString(path).withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        try #require(fd >= 0)
        #expect(write(fd, content, content.count) == content.count)
        close(fd)
    }

    /// Whether a file exists at exactly the path `bytes`.
    private func existsRaw(_ bytes: [UInt8]) -> Bool {
        (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { access($0.baseAddress!, F_OK) } == 0
    }

    @Test(arguments: CatalogBackend.all) func aBugNameThatIsNotUTF8IsIngestedAndShownEscaped(backend: CatalogBackend)
        throws
    {
        let workspace = try TestWorkspace()
        try workspace.write("inbox/bugs/Good.jpg", GeneratedImages.jpeg(width: 16, height: 12, seed: 1))
        // `L\xFFa.jpg`: 0xFF is never part of UTF-8.
        let raw = Array(workspace.path("inbox/bugs/").utf8) + [0x4C, 0xFF, 0x61, 0x2E, 0x6A, 0x70, 0x67]
        let bytes = GeneratedImages.jpeg(width: 16, height: 12, seed: 2)
        try writeRaw(raw, bytes)

        let store = try workspace.store(backend: backend)
        let (summary, events) = try runOnce(workspace, store: store)
        #expect(summary.ingested == 2, "\(events.map(\.text))")
        #expect(events.filter { $0.event == .ignored }.isEmpty, "\(events.map(\.text))")
        let ingested = events.filter { $0.event == .ingested }.compactMap(\.path)
        #expect(ingested.contains { $0.hasSuffix("bugs/L\\xFFa.jpg") }, "\(events.map(\.text))")
        #expect(events.allSatisfy { !PathBytes.hasRawBytes($0.text) })

        // The title is the escaped name (valid text); the image path keeps the exact bytes.
        let bug = try #require(try store.bugs().first { $0.title == "L\\xFFa" })
        let image = try #require(bug.image)
        #expect(PathBytes.bytes(image.path) == raw)
        #expect(try FileIO.read(image.path) == bytes)
        let outputs = try store.outputs(for: .bug(bug.id))
        #expect(!outputs.isEmpty)
        for output in outputs {
            #expect(FileStamp.of(workspace.path("out/" + output.path)) != nil, "\(output.path)")
        }
        // A second run has nothing to do: the file is known by its bytes.
        let (again, _) = try runOnce(workspace, store: store)
        #expect(again.ingested == 0)
    }

    @Test(arguments: CatalogBackend.all) func aFoodNameThatIsNotUTF8IsIngestedAndMovedWithItsExactBytes(
        backend: CatalogBackend
    ) throws {
        let workspace = try TestWorkspace()
        // `foods/Caf\xE9/\xE9t\xE9.jpg` in Latin-1: 0xE9 alone is not UTF-8.
        let relative: [UInt8] = Array("foods/Caf".utf8) + [0xE9, 0x2F, 0xE9, 0x74, 0xE9] + Array(".jpg".utf8)
        try FileManager.default.createDirectory(
            atPath: workspace.path("inbox/foods"), withIntermediateDirectories: true)
        let bytes = GeneratedImages.jpeg(width: 16, height: 12, seed: 4)
        try writeRaw(Array(workspace.path("inbox/").utf8) + relative, bytes)

        let store = try workspace.store(backend: backend)
        let log = Log()
        let ingestor = InboxIngestor(
            inbox: workspace.path("inbox"), store: store, outputDirectory: workspace.path("out"), recipes: Self.recipes,
            moveDoneTo: workspace.path("done"))
        let session = try WatchSession(
            ingestor: ingestor, options: WatchOptions(settleSeconds: 0, jobs: 1, once: true), control: WatchControl()
        ) { event in log.events.withLock { $0.append(event) } }
        let summary = session.run()
        #expect(summary.ingested == 1, "\(log.all.map(\.text))")

        let done = Array(workspace.path("done/").utf8) + relative
        #expect(!existsRaw(Array(workspace.path("inbox/").utf8) + relative))
        #expect(try FileIO.read(PathBytes.string(done)) == bytes)
        let food = try #require(try store.foods().first)
        #expect(food.category == "Caf\\xE9")
        #expect(food.name == "\\xE9t\\xE9")
        #expect(PathBytes.bytes(try #require(food.image).path) == done)
        let moved = try #require(log.all.first { $0.event == .ingested }?.movedTo)
        #expect(moved.hasSuffix("done/foods/Caf\\xE9/\\xE9t\\xE9.jpg"), "\(moved)")
    }

    @Test func escapedNamesKeepValidUTF8AndShowEveryOtherByte() {
        #expect(PathBytes.display(PathBytes.string(Array("Caf\u{E9}.jpg".utf8))) == "Caf\u{E9}.jpg")
        #expect(PathBytes.display(PathBytes.string([0x61, 0xC3, 0x28, 0x0A, 0xFE])) == "a\\xC3(\n\\xFE")
    }

    /// A name of `bytes` bytes: `stem` repeated, then `.jpg`.
    static func longName(_ bytes: Int, stem: String = "a") -> String {
        DerivedName.cut(String(repeating: stem, count: bytes), toBytes: bytes - 4) + ".jpg"
    }

    @Test(arguments: CatalogBackend.all) func aRejectedFileWithANameNear255BytesGetsItsNoteEveryTime(
        backend: CatalogBackend
    ) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let ingestor = InboxIngestor(
            inbox: workspace.path("inbox"), store: store, outputDirectory: workspace.path("out"), recipes: Self.recipes)
        let name = Self.longName(250, stem: "\u{E9}")
        for round in 1...3 {
            try workspace.write("inbox/bugs/" + name, Array("not an image, round \(round)".utf8))
            let events = ingestor.ingest("bugs/" + name)
            #expect(events.map(\.event) == [.rejected], "\(events.map(\.text))")
        }
        let rejected = try FileManager.default.contentsOfDirectory(atPath: workspace.path("inbox/.rejected"))
        let files = rejected.filter { !$0.hasSuffix(".error.txt") }
        #expect(files.count == 3)
        for file in files {
            #expect(file.hasSuffix(".jpg"))
            #expect(rejected.contains(file + ".error.txt"), "no note for \(file)")
            let note = try String(contentsOfFile: workspace.path("inbox/.rejected/\(file).error.txt"), encoding: .utf8)
            #expect(note.hasPrefix("bugs/\(name): "))
        }
    }

    @Test(arguments: CatalogBackend.all) func moveDoneOntoALongNameThatIsTakenStillMovesTheFile(backend: CatalogBackend)
        throws
    {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let ingestor = InboxIngestor(
            inbox: workspace.path("inbox"), store: store, outputDirectory: workspace.path("out"), recipes: Self.recipes,
            moveDoneTo: workspace.path("done"))
        let name = Self.longName(252)
        let other = try workspace.write("done/bugs/" + name, Array("someone else's file".utf8))
        let bytes = GeneratedImages.jpeg(width: 16, height: 12, seed: 3)
        try workspace.write("inbox/bugs/" + name, bytes)
        let events = ingestor.ingest("bugs/" + name)
        #expect(events.map(\.event) == [.ingested], "\(events.map(\.text))")
        #expect(try FileIO.read(other, maxBytes: 100) == Array("someone else's file".utf8))
        let moved = try #require(events.first?.movedTo)
        #expect((moved as NSString).lastPathComponent.utf8.count <= 255)
        #expect(moved.hasSuffix(".jpg"))
        #expect(try FileIO.read(moved, maxBytes: 1 << 20) == bytes)
        #expect(FileStamp.of(workspace.path("inbox/bugs/" + name)) == nil)
    }

    @Test func derivedNamesFitTheLimitAndStayDistinct() {
        #expect(DerivedName.fit(stem: "Moth", suffix: " (2)", ext: "jpg") == "Moth (2).jpg")
        let a = DerivedName.fit(
            stem: String(repeating: "\u{E9}", count: 200) + "a", suffix: " (2)", ext: "jpg", limit: 245)
        let b = DerivedName.fit(
            stem: String(repeating: "\u{E9}", count: 200) + "b", suffix: " (2)", ext: "jpg", limit: 245)
        #expect(a != b)
        for name in [a, b] {
            #expect(name.utf8.count <= 245)
            #expect(name.hasSuffix(" (2).jpg"))
            #expect(name.hasPrefix(String(repeating: "\u{E9}", count: 100)))
        }
        let huge = DerivedName.fit(stem: "x", ext: String(repeating: "e", count: 300))
        #expect(huge.utf8.count <= 255)
    }
}
