// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

struct CatalogBuilderTests {
    /// A catalog with two bugs and one food (real images), an output folder and a builder.
    typealias Fixture = BuildFixture

    /// Outputs per record with the default recipes: bug 3 + 2 scales, food 2 + 2.
    static let bugOutputs = 5
    static let foodOutputs = 4

    @Test(arguments: CatalogBackend.all) func aFirstBuildMakesEveryOutputAndRecordsItConsistently(
        backend: CatalogBackend
    ) throws {
        let fixture = try Fixture(backend: backend)
        let report = fixture.builder().build()
        #expect(report.failures == [])
        #expect(report.made == 2 * Self.bugOutputs + Self.foodOutputs)
        #expect(report.upToDate == 0 && report.removed == 0)
        #expect(try consistencyProblems(store: fixture.store, outputDirectory: fixture.out) == [])
        let list = try fixture.rows(.bug(1)).filter { $0.kind == .list }
        #expect(list.map(\.width) == [44, 88, 132] && list.map(\.height) == [44, 88, 132])
        #expect(list.allSatisfy { $0.path.hasPrefix("bugs/1-potato-bug/bug-list.") })
        let detail = try fixture.rows(.bug(2)).filter { $0.kind == .detail }
        // 40×60 fitted into 320×320 pt: 213×320 at @1x.
        #expect(detail.map(\.height) == [320, 640] && detail.first?.width == 213)
    }

    @Test(arguments: CatalogBackend.all) func aSecondBuildMakesNothing(backend: CatalogBackend) throws {
        let fixture = try Fixture(assets: true, backend: backend)
        let first = fixture.builder().build()
        #expect(first.failures == [] && first.made > 0)
        let files = fixture.files()
        let dates = files.map { OutputFolder(root: fixture.out).modificationDate($0) }
        let second = fixture.builder().build()
        #expect(second.made == 0 && second.removed == 0 && second.failed == 0)
        #expect(second.upToDate == first.made)
        #expect(fixture.files() == files)
        #expect(files.map { OutputFolder(root: fixture.out).modificationDate($0) } == dates)
    }

    @Test(arguments: CatalogBackend.all) func changingAPictureRegeneratesItsOutputsAndDeletesTheOldOnes(
        backend: CatalogBackend
    ) throws {
        let fixture = try Fixture(backend: backend)
        _ = fixture.builder().build()
        let old = try fixture.rows(.bug(1))
        let other = try fixture.rows(.bug(2))
        let picture = try fixture.workspace.image("img/new.png", width: 30, height: 30, seed: 7)
        try fixture.store.setImage(bugID: 1, path: picture)
        let report = fixture.builder().build(only: [.bug(1)])
        #expect(report.failures == [] && report.made == Self.bugOutputs)
        let new = try fixture.rows(.bug(1))
        #expect(new.count == old.count)
        #expect(Set(new.map(\.path)).isDisjoint(with: old.map(\.path)))
        for row in old { #expect(!FileManager.default.fileExists(atPath: fixture.out + "/" + row.path)) }
        #expect(try fixture.rows(.bug(2)) == other)
        #expect(try consistencyProblems(store: fixture.store, outputDirectory: fixture.out) == [])
    }

    @Test(arguments: CatalogBackend.all) func aChangedRecipeRemakesOnlyItsOutputs(backend: CatalogBackend) throws {
        let fixture = try Fixture(backend: backend)
        _ = fixture.builder().build()
        let json =
            #"{"recipes": [{"name": "bug-list", "record": "bug", "kind": "list", "size": "44x44", "scales": [1, 2, 3], "quality": 70}]}"#
        let book = try RecipeBook.decode(Data(json.utf8), path: "r.json")
        let report = fixture.builder(book).build()
        #expect(report.made == 2 * 3)
        #expect(report.upToDate == 2 * 2 + Self.foodOutputs)
        // The old identifier's outputs are replaced: their rows and files go.
        #expect(report.removed == 2 * 3)
        let recipe = try #require(book.recipe(named: "bug-list")).identifier
        #expect(try fixture.rows(.bug(1)).filter { $0.kind == .list }.allSatisfy { $0.recipe == recipe })
        #expect(try consistencyProblems(store: fixture.store, outputDirectory: fixture.out) == [])
        #expect(fixture.files().count == 2 * Self.bugOutputs + Self.foodOutputs)
    }

    @Test(arguments: CatalogBackend.all) func outputsNoRecipeWantsAreRemovedWithTheirFiles(backend: CatalogBackend)
        throws
    {
        let fixture = try Fixture(backend: backend)
        _ = fixture.builder().build()
        let gone = try fixture.rows(.bug(1)).filter { $0.kind == .detail }
        let book = try RecipeBook(recipes: RecipeBook.defaults.recipes.filter { $0.name != "bug-detail" })
        let report = fixture.builder(book).build()
        #expect(report.made == 0 && report.removed == 2 * 2)
        #expect(try fixture.rows(.bug(1)).allSatisfy { $0.kind == .list })
        for row in gone { #expect(!FileManager.default.fileExists(atPath: fixture.out + "/" + row.path)) }
        #expect(try consistencyProblems(store: fixture.store, outputDirectory: fixture.out) == [])
    }

    @Test(arguments: CatalogBackend.all) func aFailingRecordIsReportedAndTheOthersAreDone(backend: CatalogBackend)
        throws
    {
        let fixture = try Fixture(backend: backend)
        let broken = try fixture.workspace.write(
            "img/broken.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2])
        try fixture.store.write { try $0.addBug(title: "Broken", image: try ImageRef.load(path: broken)) }
        let lines = Locked<[String]>([])
        let report = fixture.builder().build(onFailure: { line in lines.withLock { $0.append(line) } })
        #expect(report.failed == 1)
        #expect(report.failures.count == 1 && report.failures[0].hasPrefix(broken + ": "))
        #expect(lines.withLock { $0 } == report.failures)
        #expect(report.made == 2 * Self.bugOutputs + Self.foodOutputs)
        #expect(try fixture.rows(.bug(3)).isEmpty)
    }

    @Test(arguments: CatalogBackend.all) func hostileTitlesStayInsideTheOutputFolderAndNeverCollide(
        backend: CatalogBackend
    ) throws {
        let workspace = try TestWorkspace()
        let store = try workspace.store(backend: backend)
        let picture = try workspace.image("img/a.png", width: 20, height: 20)
        let titles = ["../../etc/passwd", ".hidden", "日本語", "..", "a/b\\c", "-", String(repeating: "x", count: 5000)]
        try store.write { tx in
            for title in titles { try tx.addBug(title: title, image: try ImageRef.load(path: picture)) }
        }
        let out = workspace.path("deep/out")
        let report = CatalogBuilder(store: store, outputDirectory: out, jobs: 2).build()
        #expect(report.failures == [] && report.made == titles.count * Self.bugOutputs)
        let rows = try store.read { try $0.outputs() }
        #expect(Set(rows.map(\.path)).count == rows.count)
        for row in rows {
            #expect(OutputNaming.isSafeRelativePath(row.path), "\(row.path)")
            let parts = row.path.split(separator: "/")
            #expect(parts.first == "bugs" && parts.allSatisfy { !$0.hasPrefix(".") })
        }
        // Nothing was written outside the output folder, nor beside the database.
        let beside = backend == .sqlite ? ["thumbkit.sqlite", "thumbkit.sqlite-shm", "thumbkit.sqlite-wal"] : []
        #expect(try workspace.listing() == ["deep", "img"] + beside)
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path("deep")) == ["out"])
        #expect(try consistencyProblems(store: store, outputDirectory: out) == [])
    }

    @Test(arguments: CatalogBackend.all) func strayTempFilesOfDeadWritersAndUnrecordedFilesAreCleanedUp(
        backend: CatalogBackend
    ) throws {
        let fixture = try Fixture(backend: backend)
        _ = fixture.builder().build()
        // A dead writer's temporary file and a file without a row (a killed build's leftovers).
        let temp = try fixture.workspace.write("out/bugs/1-potato-bug/.bug-list.jpg.tmp-999999999-1", [1, 2, 3])
        let orphan = try fixture.workspace.write("out/bugs/9-gone/bug-list.0000aaaa.jpg", [1, 2, 3])
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: orphan)
        // Another host's temporaries (shared storage): a pid means nothing here, so only age
        // marks one stale. A fresh one may be a live worker's file in flight and stays.
        let otherHost = TemporaryFileName.localHost == "0badf00d" ? "0badf00e" : "0badf00d"
        let inFlight = try fixture.workspace.write(
            "out/bugs/1-potato-bug/.bug-list.jpg.tmp-\(otherHost)-999999999-1", [1, 2, 3])
        let abandoned = try fixture.workspace.write(
            "out/bugs/1-potato-bug/.bug-list.jpg.tmp-\(otherHost)-999999999-2", [1, 2, 3])
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -OutputFolder.staleTempAge - 60)], ofItemAtPath: abandoned)
        let report = fixture.builder().build()
        #expect(report.made == 0 && report.removed == 1)
        #expect(!FileManager.default.fileExists(atPath: temp))
        #expect(FileManager.default.fileExists(atPath: inFlight))
        #expect(!FileManager.default.fileExists(atPath: abandoned))
        #expect(!FileManager.default.fileExists(atPath: orphan))
        #expect(!FileManager.default.fileExists(atPath: fixture.workspace.path("out/bugs/9-gone")))
    }

    /// Shared storage may be mounted at a different path on each host: rows are relative to the
    /// output folder, so the same folder under another path is up to date, and nothing is lost.
    @Test(arguments: CatalogBackend.all) func theOutputFolderMayBeMountedElsewhere(backend: CatalogBackend) throws {
        let fixture = try Fixture(backend: backend)
        let first = fixture.builder().build()
        #expect(first.failed == 0 && first.made > 0)
        let files = fixture.files()
        let elsewhere = fixture.workspace.path("mnt/thumbs")
        try FileManager.default.createDirectory(
            atPath: fixture.workspace.path("mnt"), withIntermediateDirectories: true)
        #expect(rename(fixture.out, elsewhere) == 0)
        let again = CatalogBuilder(store: fixture.store, outputDirectory: elsewhere).build()
        #expect(again.failed == 0 && again.made == 0 && again.removed == 0)
        #expect(again.upToDate == first.made + first.upToDate)
        #expect(
            OutputFolder(root: elsewhere).files(in: [""], includeHidden: true).filter { $0 != OutputFolder.markerName }
                == files)
    }

    @Test(arguments: CatalogBackend.all) func aRecordWithoutAnImageLosesItsOutputs(backend: CatalogBackend) throws {
        let fixture = try Fixture(backend: backend)
        _ = fixture.builder().build()
        try fixture.store.setImage(foodID: 1, path: nil)
        let report = fixture.builder().build(only: [.food(1)])
        #expect(report.removed == Self.foodOutputs && report.made == 0)
        #expect(try fixture.rows(.food(1)).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.workspace.path("out/foods")))
    }

    @Test(arguments: CatalogBackend.all) func aSourceEditedInPlaceIsRemadeAndItsHashUpdated(backend: CatalogBackend)
        throws
    {
        let fixture = try Fixture(backend: backend)
        let bug = try #require(try fixture.store.bugs().first)
        // Same path, new content, recorded hash now stale; the outputs were never built.
        try fixture.workspace.image("img/potato.jpg", seed: 5, format: .jpeg)
        let report = fixture.builder().build(only: [bug.ref])
        #expect(report.failures == [] && report.made == Self.bugOutputs)
        let updated = try #require(try fixture.store.bugs().first)
        #expect(updated.image?.sha256 == (try ContentHash.sha256(ofFileAt: bug.image!.path)))
        #expect(updated.image?.sha256 != bug.image?.sha256)
        #expect(try fixture.rows(bug.ref).allSatisfy { $0.sourceSHA256 == updated.image?.sha256 })
        #expect(fixture.builder().build(only: [bug.ref]).made == 0)
    }

    @Test(arguments: CatalogBackend.all) func buildersOnOtherRecordsCanRunAtTheSameTimeAsAFullBuild(
        backend: CatalogBackend
    ) throws {
        let fixture = try Fixture(assets: true, backend: backend)
        // Three connections, as three processes would have: a full build and two record builds.
        let stores = try (0..<3).map { _ in try fixture.workspace.store(backend: backend) }
        let reports = Locked<[BuildReport]>([])
        let out = fixture.out
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            let builder = CatalogBuilder(store: stores[index], outputDirectory: out, jobs: 1)
            let report = index == 0 ? builder.build() : builder.build(only: [.bug(index)])
            reports.withLock { $0.append(report) }
        }
        #expect(reports.withLock { $0.allSatisfy { $0.failures.isEmpty } })
        #expect(try consistencyProblems(store: fixture.store, outputDirectory: fixture.out) == [])
        let after = fixture.builder().build()
        #expect(after.made == 0 && after.removed == 0 && after.failed == 0)
    }
}
