// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// A build never removes or overwrites a file that is not its own: not a source, not a user's
/// file, not another catalog's output (issue 12, item 2).
struct BuildOwnershipTests {
    typealias Fixture = CatalogBuilderTests.Fixture

    /// Every regular file below `root` with its bytes (hidden ones included).
    static func snapshot(_ root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for relative in OutputFolder(root: root).files(in: [""], includeHidden: true) {
            files[relative] = FileManager.default.contents(atPath: root + "/" + relative)
        }
        return files
    }

    /// Sets the modification time of `path` an hour back, so a sweep considers it.
    static func age(_ path: String) {
        var times = [timespec(tv_sec: time(nil) - 3600, tv_nsec: 0), timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)]
        utimensat(AT_FDCWD, path, &times, 0)
    }

    @Test(arguments: ["img", "", "img/..", "link"])
    func aBuildIntoAFolderHoldingASourceIsRefusedAndChangesNothing(out relative: String) throws {
        let fixture = try Fixture(assets: true)
        symlink(fixture.workspace.path("img"), fixture.workspace.path("link"))
        // A source that sits where an output of a previous layout would be.
        let before = Self.snapshot(fixture.workspace.root)
        let out = relative.isEmpty ? fixture.workspace.root : fixture.workspace.path(relative)
        let report = CatalogBuilder(store: fixture.store, outputDirectory: out).build()
        #expect(report.failed == 1 && report.made == 0 && report.removed == 0)
        #expect(report.failures.first?.hasPrefix("\(out): the output folder contains ") == true)
        #expect(report.failures.first?.hasSuffix("give --out a folder that holds no source pictures") == true)
        var after = Self.snapshot(fixture.workspace.root)
        // The catalog's own database files change; nothing else may.
        for name in after.keys where name.hasPrefix("thumbkit.sqlite") { after[name] = nil }
        let expected = before.filter { !$0.key.hasPrefix("thumbkit.sqlite") }
        #expect(after == expected)
    }

    @Test func aFullBuildSweepsOnlyFilesNamedAsOutputs() throws {
        let fixture = try Fixture()
        #expect(fixture.builder().build().failed == 0)
        let mine = [
            "bugs/mine.jpg", "bugs/1-potato-bug/notes.txt", "bugs/1-potato-bug/holiday.jpg",
            "bugs/1-potato-bug/bug-list.0123abcd.jpg.bak", "bugs/1-potato-bug/Bug-List.0123abcd.jpg",
            "bugs/1-potato-bug/bug-list.0123ABCD.jpg", "bugs/photos/bug-list.0123abcd.jpg",
            "ratings/favourite.png", "foods/7-x/food-list.0123abcd.gif", "app/icon.png",
            "bugs/1-potato-bug/.hidden.tmp-notes", "bugs/1-potato-bug/.x.tmp-1-2-3",
        ]
        for path in mine {
            try fixture.workspace.write("out/" + path, text: "user data \(path)")
            Self.age(fixture.out + "/" + path)
        }
        // Named exactly as a build names an output, and no row describes it: ThumbKit's by the
        // documented rule (a build in a folder its catalog owns).
        let orphan = "bugs/9-gone/bug-list.0123abcd@2x.jpg"
        try fixture.workspace.write("out/" + orphan, text: "left by a deleted record")
        Self.age(fixture.out + "/" + orphan)
        let report = fixture.builder().build()
        #expect(report.failed == 0 && report.removed == 1)
        for path in mine { #expect(FileManager.default.fileExists(atPath: fixture.out + "/" + path), "\(path)") }
        #expect(!FileManager.default.fileExists(atPath: fixture.out + "/" + orphan))
    }

    @Test func aFolderLinkedIntoTheOutputFolderIsNeitherWalkedNorSwept() throws {
        let fixture = try Fixture()
        #expect(fixture.builder().build().failed == 0)
        // A user's folder of files named exactly as outputs (and a dead writer's temporary),
        // reached through a symbolic link where a record folder would be.
        let names = ["bug-list.0123abcd.jpg", "bug-list.0123abcd@2x.jpg", ".bug-list.0123abcd.jpg.tmp-0-1"]
        for name in names {
            try fixture.workspace.write("elsewhere/" + name, text: "user data \(name)")
            Self.age(fixture.workspace.path("elsewhere/" + name))
        }
        #expect(symlink(fixture.workspace.path("elsewhere"), fixture.out + "/bugs/9-gone") == 0)
        #expect(
            !OutputFolder(root: fixture.out).files(in: [""], includeHidden: true).contains {
                $0.hasPrefix("bugs/9-gone")
            })
        let report = fixture.builder().build()
        #expect(report.failed == 0 && report.removed == 0)
        for name in names {
            #expect(FileManager.default.fileExists(atPath: fixture.workspace.path("elsewhere/" + name)), "\(name)")
        }
    }

    @Test func aSourceLinkedIntoTheOutputFolderUnderAnOutputNameIsNeverSwept() throws {
        let fixture = try Fixture()
        #expect(fixture.builder().build().failed == 0)
        let linked = fixture.out + "/bugs/9-gone/bug-list.0123abcd.jpg"
        try FileManager.default.createDirectory(atPath: fixture.out + "/bugs/9-gone", withIntermediateDirectories: true)
        #expect(link(fixture.workspace.path("img/potato.jpg"), linked) == 0)
        Self.age(linked)
        let report = fixture.builder().build()
        #expect(report.failed == 0 && report.removed == 0)
        #expect(FileManager.default.fileExists(atPath: linked))
    }

    /// A source hard-linked exactly where an output goes is refused, not replaced.
    @Test func aSourceLinkedWhereAnOutputGoesIsNotOverwritten() throws {
        let fixture = try Fixture()
        let source = fixture.workspace.path("img/potato.jpg")
        let image = try ImageRef.load(path: source)
        let recipe = try #require(RecipeBook.defaults.recipe(named: "bug-list"))
        let relative = OutputNaming.builtPath(
            for: .bug(1), title: "Potato Bug", recipe: recipe, scale: 1, sourceSHA256: image.sha256)
        let target = fixture.out + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(link(source, target) == 0)
        let before = FileManager.default.contents(atPath: source)
        let report = fixture.builder().build()
        #expect(report.failed == 1)
        #expect(report.failures.first?.hasPrefix("\(target): is a source picture of the catalog") == true)
        #expect(FileManager.default.contents(atPath: source) == before)
        #expect(FileManager.default.contents(atPath: target) == before)
    }

    @Test func anotherCatalogsOutputFolderIsRefusedAndKeepsItsFiles() throws {
        let fixture = try Fixture(assets: true)
        #expect(fixture.builder().build().failed == 0)
        let before = Self.snapshot(fixture.out)
        #expect(before[OutputFolder.markerName] != nil)

        let other = try fixture.workspace.store("other.sqlite")
        let picture = try fixture.workspace.image("img2/other.png", seed: 7)
        try other.write { tx in
            try tx.addBug(title: "Other Bug", rating: Rating(exactly: 2)!, image: try ImageRef.load(path: picture))
        }
        for records in [nil, [RecordRef.bug(1)]] {
            let report = CatalogBuilder(store: other, outputDirectory: fixture.out).build(only: records)
            #expect(report.failed == 1 && report.made == 0 && report.removed == 0)
            #expect(
                report.failures.first?.hasPrefix("\(fixture.out): the output folder belongs to another catalog") == true
            )
            #expect(Self.snapshot(fixture.out) == before)
        }
        let again = fixture.builder().build()
        #expect(again.failed == 0 && again.made == 0 && again.removed == 0)
    }

    @Test func aBuildClaimingAFolderRemovesNothingThereAndSaysSo() throws {
        let fixture = try Fixture()
        let stale = "bugs/5-old/bug-list.0123abcd.jpg"
        try fixture.workspace.write("out/" + stale, text: "an output of some earlier catalog")
        Self.age(fixture.out + "/" + stale)
        // Named like a dead writer's temporary file: still not this catalog's to remove yet.
        let temp = "bugs/5-old/.bug-list.0123abcd.jpg.tmp-999999999-1"
        try fixture.workspace.write("out/" + temp, text: "someone else's")
        Self.age(fixture.out + "/" + temp)
        let notes = Locked<[String]>([])
        let report = fixture.builder().build(onNote: { line in notes.withLock { $0.append(line) } })
        #expect(report.failed == 0 && report.removed == 0)
        #expect(FileManager.default.fileExists(atPath: fixture.out + "/" + stale))
        #expect(FileManager.default.fileExists(atPath: fixture.out + "/" + temp))
        #expect(notes.withLock { $0 }.count == 1)
        #expect(notes.withLock { $0 }.first?.contains("files already there were left alone") == true)
        let id = try fixture.store.write { try $0.catalogID() }
        #expect(
            FileManager.default.contents(atPath: fixture.out + "/" + OutputFolder.markerName)
                == Data("thumbkit-catalog \(id)\n".utf8))
        // Now the folder is the catalog's: a later full build sweeps what is named as its output.
        let second = fixture.builder().build()
        #expect(second.removed == 1 && !FileManager.default.fileExists(atPath: fixture.out + "/" + stale))
    }

    @Test func anUnreadableMarkerIsTreatedAsAnotherCatalogs() throws {
        let fixture = try Fixture()
        try fixture.workspace.write("out/" + OutputFolder.markerName, text: "garbage")
        let report = fixture.builder().build()
        #expect(report.failed == 1 && report.made == 0)
        #expect(report.failures.first?.contains("(.thumbkit-catalog: unreadable marker)") == true)
    }
}
