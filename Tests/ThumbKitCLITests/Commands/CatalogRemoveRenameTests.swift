// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalog
import ThumbKitCatalogTestSupport

@testable import ThumbKitCLI

/// `catalog remove`, `catalog rename` and `catalog show` by title (issue 12, item 29), and
/// `demo` refusing folders it did not make (item 8).
struct CatalogRemoveRenameTests {
    typealias Run = CatalogCLITests.Run

    /// A built catalog on `backend`: the workspace, the `--catalog … --out …` arguments, the
    /// store, and the scratch workspace that holds the catalog (kept alive with it).
    static func built(
        _ backend: CatalogBackend
    ) async throws -> (CLIWorkspace, [String], CatalogStore, TestWorkspace) {
        let workspace = try CLIWorkspace()
        let scratch = try TestWorkspace()
        let catalog = ["--catalog", try backend.catalog(in: scratch)]
        _ = await Run(["catalog", "import", try workspace.importFile()] + catalog)
        // The same rating as bug 1, so the two share their rating strips.
        _ = await Run(["catalog", "rate", "2", "3.5", "--no-build"] + catalog)
        let paths = catalog + ["--out", workspace.path("out")]
        let build = await Run(["build"] + paths)
        #expect(build.status == 0)
        return (workspace, paths, try scratch.store(backend: backend), scratch)
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test(arguments: CatalogBackend.all) func removeDeletesTheRecordItsRowsAndItsOwnFilesOnly(backend: CatalogBackend)
        async throws
    {
        let (workspace, paths, store, scratch) = try await Self.built(backend)
        defer { withExtendedLifetime(scratch) {} }
        let mine = try store.outputs(for: .bug(1))
        let other = try store.outputs(for: .bug(2))
        let shared = Set(mine.map(\.path)).intersection(other.map(\.path))
        #expect(!shared.isEmpty)
        let folder = (mine.first { $0.kind != .rating }!.path as NSString).deletingLastPathComponent
        let foreign = try workspace.write("out/\(folder)/notes.txt", "mine")
        let source = try #require(try store.bugs()[0].image?.path)

        let run = await Run(["catalog", "remove", "1"] + paths)
        #expect(run.status == 0)
        #expect(run.stdout == "removed bug:1 Potato Bug and \(mine.count - shared.count) output files\n")
        #expect(try store.bugs().map(\.id) == [2])
        #expect(try store.outputs(for: .bug(1)).isEmpty)
        for row in mine where !shared.contains(row.path) { #expect(!Self.exists(workspace.path("out/" + row.path))) }
        for row in other { #expect(Self.exists(workspace.path("out/" + row.path)), "\(row.path)") }
        #expect(Self.exists(foreign) && Self.exists(source))
        let build = await Run(["build"] + paths)
        #expect(build.status == 0 && build.stdout.hasPrefix("0 made, "))
    }

    @Test(arguments: CatalogBackend.all) func removeKeepsAFileReachedThroughALinkOrThatIsASourceWhateverTheRowsSay(
        backend: CatalogBackend
    ) async throws {
        let (workspace, paths, store, scratch) = try await Self.built(backend)
        defer { withExtendedLifetime(scratch) {} }
        let rows = try store.outputs(for: .bug(1)).filter { $0.kind != .rating }
        // The record's folder becomes a link to a folder of someone else's files of the same names.
        let folder = (rows[0].path as NSString).deletingLastPathComponent
        try FileManager.default.removeItem(atPath: workspace.path("out/" + folder))
        try FileManager.default.createDirectory(atPath: workspace.path("elsewhere"), withIntermediateDirectories: true)
        for row in rows { try workspace.write("elsewhere/" + (row.path as NSString).lastPathComponent, "theirs") }
        try FileManager.default.createSymbolicLink(
            atPath: workspace.path("out/" + folder), withDestinationPath: workspace.path("elsewhere"))
        // A tampered row of bug 1 names bug 2's source picture, copied into the output folder by hand.
        let beetle = try #require(try store.bugs()[1].image?.path)
        try FileManager.default.createDirectory(
            atPath: workspace.path("out/bugs/src"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: beetle, toPath: workspace.path("out/bugs/src/beetle.jpg"))
        try store.write { tx in
            try tx.setImage(bugID: 2, image: try ImageRef.load(path: workspace.path("out/bugs/src/beetle.jpg")))
            var values = rows[0].values
            values.recipe = "tampered"
            values.path = "bugs/src/beetle.jpg"
            try tx.upsertOutput(values)
        }
        let run = await Run(["catalog", "remove", "bug:1"] + paths)
        #expect(run.status == 1)
        #expect(run.stderr.contains("bugs/src/beetle.jpg: a record's source picture; kept"))
        #expect(run.stderr.contains("outside the output folder once links are resolved; kept"))
        for row in rows {
            let theirs = workspace.path("elsewhere/" + (row.path as NSString).lastPathComponent)
            #expect(FileManager.default.contents(atPath: theirs) == Data("theirs".utf8))
        }
        #expect(Self.exists(workspace.path("out/bugs/src/beetle.jpg")))
    }

    @Test(arguments: CatalogBackend.all) func removeNeverDeletesAnotherCatalogsFilesHoweverItsFolderIsNamed(
        backend: CatalogBackend
    ) async throws {
        let (workspace, paths, store, scratch) = try await Self.built(backend)
        defer { withExtendedLifetime(scratch) {} }
        // A second catalog of the same records and pictures: its outputs have the very paths of
        // the first's.
        let catalog = ["--catalog", try backend.catalog("theirs.sqlite", in: scratch)]
        _ = await Run(["catalog", "import", try workspace.importFile()] + catalog)
        _ = await Run(["catalog", "rate", "2", "3.5", "--no-build"] + catalog)
        let theirs = workspace.path("theirs")
        #expect(await Run(["build", "--out", theirs] + catalog).status == 0)
        let mine = try store.outputs(for: .bug(1)).map(\.path)
        #expect(!mine.isEmpty && mine.allSatisfy { Self.exists(theirs + "/" + $0) })
        func files() -> [String] { OutputFolder(root: theirs).files(in: [""], includeHidden: true) }
        let before = files()
        try FileManager.default.createSymbolicLink(atPath: workspace.path("link"), withDestinationPath: theirs)
        let mineOnly = ["--catalog", paths[1]]

        // Their folder by its name, with a trailing slash or a dot, or through a link.
        for out in [theirs, theirs + "/", theirs + "/.", workspace.path("link")] {
            let run = await Run(["catalog", "remove", "1", "--out", out] + mineOnly)
            #expect(run.status == 1, "\(out)")
            #expect(run.stdout == "" && run.stderr.contains("the output folder belongs to another catalog"), "\(out)")
            #expect(try store.bugs().map(\.id) == [1, 2] && store.outputs(for: .bug(1)).map(\.path) == mine)
            #expect(files() == before, "\(out)")
        }
        // A marker that cannot be read is no licence either.
        let marker = theirs + "/" + OutputFolder.markerName
        let text = try #require(FileManager.default.contents(atPath: marker))
        try Data("thumbkit-catalog\n".utf8).write(to: URL(fileURLWithPath: marker))
        #expect(await Run(["catalog", "remove", "1", "--out", theirs] + mineOnly).status == 1)
        #expect(try files() == before && store.bugs().count == 2)
        // Nor is a folder nobody claimed: the record goes, every file stays and is named.
        try FileManager.default.removeItem(atPath: marker)
        let unclaimed = await Run(["catalog", "remove", "1", "--out", theirs] + mineOnly)
        #expect(unclaimed.status == 1 && unclaimed.stderr.contains("is not this catalog's"))
        #expect(unclaimed.stdout == "removed bug:1 Potato Bug and 0 output files\n")
        #expect(files() == before.filter { $0 != OutputFolder.markerName })
        #expect(try store.bugs().map(\.id) == [2])
        try text.write(to: URL(fileURLWithPath: marker))
        #expect(await Run(["build", "--out", theirs] + catalog).stdout.hasPrefix("0 made, "))
    }

    @Test(arguments: CatalogBackend.all) func renameRebuildsUnderTheNewNameAndLeavesNoOldFileBehind(
        backend: CatalogBackend
    ) async throws {
        let (workspace, paths, store, scratch) = try await Self.built(backend)
        defer { withExtendedLifetime(scratch) {} }
        let old = try store.outputs(for: .bug(1)).filter { $0.kind != .rating }
        let run = await Run(["catalog", "rename", "1", "Potato Beetle"] + paths)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("bug:1 Potato Bug → Potato Beetle\noutputs: "))
        #expect(try store.bugs()[0].title == "Potato Beetle")
        let new = try store.outputs(for: .bug(1)).filter { $0.kind != .rating }
        #expect(new.count == old.count && Set(new.map(\.path)).isDisjoint(with: old.map(\.path)))
        for row in old { #expect(!Self.exists(workspace.path("out/" + row.path))) }
        for row in new { #expect(Self.exists(workspace.path("out/" + row.path))) }
        let food = await Run(["catalog", "rename", "food:1", "Chicken Piccata", "--no-build"] + paths)
        #expect(food.status == 0)
        #expect(try store.foods()[0].name == "Chicken Piccata")
        let taken = await Run(["catalog", "rename", "1", "Beetle", "--no-build"] + paths)
        #expect(taken.status == 1 && taken.stderr == "thumbkit: bug 1: bug 2 already has this title\n")
    }

    @Test(arguments: CatalogBackend.all) func renameAndSetImageRemoveAndCountTheOutputsTheyReplaceAfterASite(
        backend: CatalogBackend
    ) async throws {
        let (workspace, paths, store, scratch) = try await Self.built(backend)
        defer { withExtendedLifetime(scratch) {} }
        // `site` links every output it publishes: from then on each has a second link.
        let site = await Run(["site", workspace.path("site")] + paths)
        #expect(site.status == 0, "\(site.stderr)")
        let out = workspace.path("out")
        func leftovers() throws -> [String] {
            let rows = Set(try store.read { try $0.outputs() }.map(\.path))
            return OutputFolder(root: out).files(in: OutputFolder.ownedFolders, includeHidden: false).filter {
                !rows.contains($0) && $0 != AppIcon.contentsPath
            }
        }
        func own() throws -> [String] { try store.outputs(for: .bug(1)).filter { $0.kind != .rating }.map(\.path) }
        let count = try own().count
        let picture = try workspace.image("img/other.png", seed: 7)
        let steps: [[String]] = [
            ["catalog", "rename", "1", "Potato Beetle"],  // after a site
            ["catalog", "rename", "1", "Colorado Beetle"],  // twice
            ["catalog", "set-image", "1", picture],  // a new picture
            ["catalog", "rename", "1", "Potato Bug"],  // after set-image
            ["catalog", "set-image", "1", workspace.path("img/potato.png"), "--no-build"],
            ["catalog", "rename", "1", "Spud Bug"],  // outputs not built for the current picture
        ]
        for step in steps {
            let before = try own()
            let run = await Run(step + paths)
            #expect(run.status == 0, "\(step): \(run.stderr)")
            if step.contains("--no-build") { continue }
            #expect(run.stdout.contains("outputs: \(count) made, "), "\(step): \(run.stdout)")
            #expect(run.stdout.hasSuffix(", \(count) removed, 0 failed\n"), "\(step): \(run.stdout)")
            for path in before { #expect(!Self.exists(out + "/" + path), "\(step): \(path)") }
            #expect(try leftovers() == [], "\(step)")
        }
        #expect(try own().allSatisfy { $0.hasPrefix("bugs/1-spud-bug/") })
        // The site keeps what it published until it is written again.
        let published = OutputFolder(root: workspace.path("site")).files(in: ["images"], includeHidden: false)
        #expect(!published.isEmpty)
        let build = await Run(["build"] + paths)
        #expect(build.stdout.hasPrefix("0 made, ") && build.stdout.hasSuffix(", 0 removed, 0 failed\n"))
    }

    @Test(arguments: CatalogBackend.all)
    func showFindsARecordByTitleAndListsTheCandidatesWhenSeveralMatch(backend: CatalogBackend) async throws {
        let workspace = try CLIWorkspace()
        let scratch = try TestWorkspace()
        try workspace.image("img/a.png", seed: 1)
        let file = try workspace.write(
            "c.json",
            """
            {"categories": ["Pork"], "bugs": [{"title": "Potato Bug"}, {"title": "Beetle"}],
             "foods": [{"category": "Pork", "name": "Beetle", "image": "img/a.png"}]}
            """)
        let catalog = ["--catalog", try backend.catalog(in: scratch)]
        _ = await Run(["catalog", "import", file] + catalog)
        let exact = await Run(["catalog", "show", "Potato Bug"] + catalog)
        #expect(exact.status == 0 && exact.stdout.contains("  id       bug:1\n"))
        let anyCase = await Run(["catalog", "show", "potato bug"] + catalog)
        #expect(anyCase.status == 0 && anyCase.stdout.contains("  id       bug:1\n"))
        let both = await Run(["catalog", "show", "Beetle"] + catalog)
        #expect(both.status == 1)
        #expect(
            both.stderr
                == "thumbkit: 'Beetle': 2 records have this title or name: bug:2 Beetle, food:1 Beetle (Pork); "
                + "name one by id\n")
        let none = await Run(["catalog", "show", "Moth"] + catalog)
        #expect(none.status == 1 && none.stderr == "thumbkit: 'Moth': no bug or food has this title or name\n")
    }

    // MARK: demo

    @Test func demoRefusesAFolderItDidNotMakeAndRunsAgainOnItsOwn() async throws {
        let workspace = try CLIWorkspace()
        let user = workspace.path("user")
        try FileManager.default.createDirectory(atPath: user + "/bugs", withIntermediateDirectories: true)
        let theirs = ["catalog.json", "logo.png", "bugs/potato-bug.jpg"]
        for name in theirs { try workspace.write("user/" + name, "theirs") }
        let refused = await Run(["demo", user])
        #expect(refused.status == 1 && refused.stderr.contains("refusing to write the demo into a folder"))
        for name in theirs { #expect(FileManager.default.contents(atPath: user + "/" + name) == Data("theirs".utf8)) }
        #expect(!Self.exists(user + "/.thumbkit-demo"))
        // A forged, empty marker proves nothing.
        try workspace.write("user/.thumbkit-demo", "")
        #expect(await Run(["demo", user]).status == 1)
        for name in theirs { #expect(FileManager.default.contents(atPath: user + "/" + name) == Data("theirs".utf8)) }

        let demo = workspace.path("demo")
        let first = await Run(["demo", demo])
        #expect(first.status == 0 && first.stdout == demo + "/catalog.json\n")
        let second = await Run(["demo", demo])
        #expect(second.status == 0 && second.stdout == demo + "/catalog.json\n")

        // A file changed since the demo wrote it, and a sub-folder turned into a link, are refused.
        try workspace.write("demo/logo.png", "mine now")
        try FileManager.default.createDirectory(atPath: workspace.path("away"), withIntermediateDirectories: true)
        try workspace.write("away/potato-bug.jpg", "theirs")
        try FileManager.default.removeItem(atPath: demo + "/bugs")
        try FileManager.default.createSymbolicLink(atPath: demo + "/bugs", withDestinationPath: workspace.path("away"))
        let linked = await Run(["demo", demo])
        #expect(linked.status == 1 && linked.stderr.contains("refusing"))
        #expect(FileManager.default.contents(atPath: demo + "/logo.png") == Data("mine now".utf8))
        #expect(FileManager.default.contents(atPath: workspace.path("away/potato-bug.jpg")) == Data("theirs".utf8))
    }
}
