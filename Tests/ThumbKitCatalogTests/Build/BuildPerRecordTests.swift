// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// A build of some records (each watch-folder ingest, `catalog rate`, `set-image`) reads and
/// touches only those records' rows and files, the shared strips and the assets, so its cost
/// does not grow with the catalog; it stays as safe as a full build (issue "Scale-out", 3).
struct BuildPerRecordTests {
    typealias Fixture = CatalogBuilderTests.Fixture

    /// A dead writer's temporary file name (process id 0 is never a writer).
    static let strayTemp = "foods/1-chicken-marsala/.food-list.tmp-0-1"

    @Test func aRecordsBuildReadsNoOtherRecordsRows() throws {
        let fixture = try Fixture(assets: true)
        #expect(fixture.builder().build().failed == 0)
        // Rows a build would fail on, if it read them: another bug's and the food's.
        try fixture.store.write { tx in
            try tx.db.run("UPDATE bugs SET created_at = 'not a time' WHERE id = 2")
            try tx.db.run("UPDATE outputs SET created_at = 'not a time' WHERE record_kind = 'food'")
            try tx.rate(bugID: 1, rating: 4.5)
        }
        let one = fixture.builder().build(only: [.bug(1)])
        #expect(one.failed == 0, "\(one.failures)")
        #expect(one.made > 0)
        #expect(try fixture.rows(.bug(1)).contains { $0.kind == .rating && $0.recipe.contains("4.5") })
        let full = fixture.builder().build()
        #expect(full.failed == 1)
        #expect(full.failures.first?.contains("malformed time") == true, "\(full.failures)")
    }

    @Test func aRecordsBuildLeavesStrayTemporariesToAFullBuild() throws {
        let fixture = try Fixture()
        #expect(fixture.builder().build().failed == 0)
        let stray = fixture.out + "/" + Self.strayTemp
        try fixture.workspace.write("out/" + Self.strayTemp, text: "left by a killed writer")
        try fixture.store.write { tx in try tx.rate(bugID: 1, rating: 2) }
        #expect(fixture.builder().build(only: [.bug(1)]).failed == 0)
        #expect(FileManager.default.fileExists(atPath: stray))
        #expect(fixture.builder().build().failed == 0)
        #expect(!FileManager.default.fileExists(atPath: stray))
    }

    @Test func removeStrayTemporariesSweepsOnlyAnOwnedFolder() throws {
        let fixture = try Fixture()
        let stray = fixture.out + "/" + Self.strayTemp
        try fixture.workspace.write("out/" + Self.strayTemp, text: "not claimed yet")
        #expect(try fixture.builder().removeStrayTemporaries() == 0)
        #expect(FileManager.default.fileExists(atPath: stray))
        #expect(!FileManager.default.fileExists(atPath: fixture.out + "/" + OutputFolder.markerName))
        #expect(fixture.builder().build().failed == 0)  // Claims the folder, removing nothing.
        #expect(FileManager.default.fileExists(atPath: stray))
        #expect(try fixture.builder().removeStrayTemporaries() == 1)
        #expect(!FileManager.default.fileExists(atPath: stray))
    }

    /// Another record's source hard-linked where this record's output goes: a build of this
    /// record does not know that source, but a file with two links is not provably its own.
    @Test func aRecordsBuildDoesNotReplaceAHardLinkedFile() throws {
        let fixture = try Fixture()
        let other = fixture.workspace.path("img/beetle.png")
        let image = try ImageRef.load(path: fixture.workspace.path("img/potato.jpg"))
        let recipe = try #require(RecipeBook.defaults.recipe(named: "bug-list"))
        let relative = OutputNaming.builtPath(
            for: .bug(1), title: "Potato Bug", recipe: recipe, scale: 1, sourceSHA256: image.sha256)
        let target = fixture.out + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(link(other, target) == 0)
        let before = FileManager.default.contents(atPath: other)
        let report = fixture.builder().build(only: [.bug(1)])
        #expect(report.failed == 1)
        #expect(report.failures.first?.hasPrefix("\(target): is a source picture of the catalog") == true)
        #expect(FileManager.default.contents(atPath: other) == before)
    }

    /// Another record's image set to a file of this record's outputs: when this record's image
    /// changes, its old outputs go, but not that file.
    @Test func aRecordsBuildKeepsAnOutputThatIsAnotherRecordsImage() throws {
        let fixture = try Fixture()
        #expect(fixture.builder().build().failed == 0)
        let old = try fixture.rows(.bug(1)).filter { $0.kind != .rating }
        let list = try #require(old.first { $0.kind == .list && $0.scale == 1 })
        let shared = fixture.out + "/" + list.path
        let before = FileManager.default.contents(atPath: shared)
        let changed = try fixture.workspace.image("img/potato2.jpg", seed: 9, format: .jpeg)
        try fixture.store.write { tx in
            try tx.setImage(bugID: 2, image: try ImageRef.load(path: shared))
            try tx.setImage(bugID: 1, image: try ImageRef.load(path: changed))
        }
        let report = fixture.builder().build(only: [.bug(1)])
        #expect(report.failed == 0, "\(report.failures)")
        #expect(report.made == old.count)
        #expect(FileManager.default.contents(atPath: shared) == before)
        // The other old outputs were removed: the check let the build do its usual cleanup.
        for row in old where row.path != list.path {
            #expect(!FileManager.default.fileExists(atPath: fixture.out + "/" + row.path), "\(row.path)")
        }
        #expect(try fixture.rows(.bug(1)).allSatisfy { $0.path != list.path })
    }

    /// Every lookup a one-record build adds is backed by an index (schema version 6).
    @Test(arguments: ["bugs", "foods"])
    func recordImageLookupsUseAnIndex(table: String) throws {
        let fixture = try Fixture()
        let plan = try fixture.store.read { tx in
            try tx.db.query("EXPLAIN QUERY PLAN SELECT 1 FROM \(table) WHERE image_path IN (?, ?)") { $0.string(3) }
        }
        #expect(plan.contains { $0.contains("INDEX \(table)_image_path") }, "\(plan)")
    }

    /// So is the content check of a file with other hard links (schema version 8).
    @Test(arguments: ["bugs", "foods"])
    func recordImageHashLookupsUseAnIndex(table: String) throws {
        let fixture = try Fixture()
        let plan = try fixture.store.read { tx in
            try tx.db.query("EXPLAIN QUERY PLAN SELECT 1 FROM \(table) WHERE image_sha256 = ?") { $0.string(3) }
        }
        #expect(plan.contains { $0.contains("INDEX \(table)_image_sha256") }, "\(plan)")
    }
}
