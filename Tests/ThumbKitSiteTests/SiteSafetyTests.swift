// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalogTestSupport

@testable import ThumbKitCatalog
@testable import ThumbKitSite

#if canImport(Glibc)
    import Glibc
#endif

/// The site folder's files that are not ThumbKit's survive every run: the manifest is the only
/// proof of ownership, and every path (manifest entries, output rows) is checked before use.
struct SiteSafetyTests {
    /// A built catalog (on `backend`) and a site folder path inside its workspace.
    static func built(_ backend: CatalogBackend = .sqlite) throws -> (BuildFixture, String) {
        let fixture = try BuildFixture(assets: true, backend: backend)
        #expect(fixture.builder().build().failures == [])
        return (fixture, fixture.workspace.path("site"))
    }

    static func generate(
        _ fixture: BuildFixture, _ site: String, intoExisting: Bool = false
    ) throws -> SiteReport {
        try SiteGenerator(store: fixture.store, outputDirectory: fixture.out, intoExisting: intoExisting)
            .generate(into: site)
    }

    static func text(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    static func manifest(_ site: String) throws -> SiteManifest {
        try #require(try SiteManifest.load(siteRoot: site))
    }

    static func saveManifest(_ manifest: SiteManifest, _ site: String) throws {
        try manifest.save(siteRoot: site)
    }

    /// A process id no process has now.
    static func deadPID() -> Int32 {
        var pid: Int32 = 4_000_000
        while kill(pid, 0) == 0 || errno != ESRCH { pid -= 1 }
        return pid
    }

    @Test func aFolderThatIsNotASiteIsRefusedAndWithTheFlagItsFilesAreUntouched() throws {
        let (fixture, site) = try Self.built()
        let foreign = ["images/mine.jpg": "my photo", "bugs/custom.html": "<p>mine</p>", "notes.txt": "notes"]
        for (relative, text) in foreign { _ = try fixture.workspace.write("site/" + relative, text: text) }

        let refused = catalogError { try Self.generate(fixture, site) }
        #expect(
            refused?.path == site && refused?.reason.contains("--into-existing") == true,
            "\(String(describing: refused))")
        #expect(!FileManager.default.fileExists(atPath: site + "/index.html"))
        #expect(!FileManager.default.fileExists(atPath: site + "/" + SiteManifest.fileName))

        let first = try Self.generate(fixture, site, intoExisting: true)
        #expect(first.problems == [] && first.pages > 0)
        let second = try Self.generate(fixture, site)
        #expect(second.problems == [] && second.kept == [])
        for (relative, text) in foreign { #expect(Self.text(site + "/" + relative) == text, "\(relative)") }
        #expect(try Self.manifest(site).files.keys.allSatisfy { foreign[$0] == nil })
    }

    @Test func aForeignFileWhereAPageGoesIsLeftAloneAndReported() throws {
        let (fixture, site) = try Self.built()
        _ = try fixture.workspace.write("site/index.html", text: "my home page")
        // A link where the style sheet goes, and a linked folder where the food pages go: both lead out.
        let css = try fixture.workspace.write("mine/style.css", text: "my css")
        symlink(css, site + "/style.css")
        symlink(fixture.workspace.path("mine"), site + "/foods")
        let report = try Self.generate(fixture, site, intoExisting: true)
        #expect(Self.text(site + "/index.html") == "my home page" && Self.text(css) == "my css")
        #expect(
            report.problems.contains("\(site)/index.html: already there and not written by thumbkit site; left alone"))
        #expect(
            report.problems.contains("\(site)/style.css: already there and not written by thumbkit site; left alone"))
        #expect(
            report.problems.contains("\(site)/foods/index.html: leads outside the site folder (a symlink); skipped"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.workspace.path("mine")) == ["style.css"])
        #expect(try Self.manifest(site).files.keys.allSatisfy { $0 != "index.html" && !$0.hasPrefix("foods/") })
        #expect(FileManager.default.fileExists(atPath: site + "/bugs/index.html"))
    }

    @Test(arguments: CatalogBackend.all) func aFileNoLongerNeededIsRemovedAndOneChangedSinceIsKept(
        backend: CatalogBackend
    ) throws {
        let (fixture, site) = try Self.built(backend)
        _ = try Self.generate(fixture, site)
        let beetle = try #require(try fixture.store.read { try $0.bug(title: "Beetle") })
        let potato = try #require(try fixture.store.read { try $0.bug(title: "Potato Bug") })
        // The user edits one page of each bug; then both bugs go.
        let edited = site + "/bugs/\(potato.id).html"
        try Data("edited by hand".utf8).write(to: URL(fileURLWithPath: edited))
        try fixture.store.write { tx in
            _ = try tx.deleteBug(id: beetle.id)
            _ = try tx.deleteBug(id: potato.id)
        }
        _ = fixture.builder().build()
        let report = try Self.generate(fixture, site)
        #expect(!FileManager.default.fileExists(atPath: site + "/bugs/\(beetle.id).html"))
        #expect(Self.text(edited) == "edited by hand")
        #expect(report.kept == ["\(edited): changed since thumbkit site wrote it; kept"])
        #expect(try Self.manifest(site).files["bugs/\(potato.id).html"] == nil)
        let images = OutputFolder(root: site).files(in: ["images"], includeHidden: true)
        #expect(images.count == report.images)
    }

    @Test func aTamperedManifestCannotDeleteAnythingOutsideOrForeign() throws {
        let (fixture, site) = try Self.built()
        _ = try Self.generate(fixture, site)
        let victim = try fixture.workspace.write("victim.txt", text: "precious")
        let outside = try fixture.workspace.write("elsewhere/victim.txt", text: "precious")
        let notes = try fixture.workspace.write("site/notes.txt", text: "notes")
        symlink(fixture.workspace.path("elsewhere"), site + "/linked")
        let hash = ContentHash.sha256(of: Array("precious".utf8))
        var manifest = try Self.manifest(site)
        for path in ["../victim.txt", victim, "linked/victim.txt", "images/../../victim.txt", "./../victim.txt"] {
            manifest.files[path] = [hash]
        }
        // The right hash of a file ThumbKit never wrote still proves nothing when the path is unsafe,
        // and a wrong hash proves nothing for a safe path.
        manifest.files["notes.txt"] = [ContentHash.sha256(of: Array("other".utf8))]
        try Self.saveManifest(manifest, site)

        let report = try Self.generate(fixture, site)
        #expect(Self.text(victim) == "precious" && Self.text(outside) == "precious" && Self.text(notes) == "notes")
        #expect(report.kept.contains("\(site)/notes.txt: changed since thumbkit site wrote it; kept"))
        #expect(report.kept.contains("../victim.txt: not a path inside the site folder; ignored"))
        #expect(report.kept.contains("linked/victim.txt: not a path inside the site folder; ignored"))
        #expect(try Self.manifest(site).files.keys.allSatisfy { !$0.contains("victim") && $0 != "notes.txt" })
    }

    @Test func aManifestThatIsNotOneIsRefused() throws {
        let (fixture, site) = try Self.built()
        _ = try fixture.workspace.write("site/" + SiteManifest.fileName, text: #"{"files": {"a": []}}"#)
        _ = try fixture.workspace.write("site/index.html", text: "mine")
        let error = catalogError { try Self.generate(fixture, site, intoExisting: true) }
        #expect(error?.path == site + "/" + SiteManifest.fileName)
        #expect(Self.text(site + "/index.html") == "mine")
    }

    @Test func ownTemporariesOfAKilledRunAreRemovedAndNothingElse() throws {
        let (fixture, site) = try Self.built()
        _ = try Self.generate(fixture, site)
        let dead = Self.deadPID()
        let own = [
            ".index.html.tmp-\(dead)-123", "bugs/.index.html.tmp-\(dead)-7", "..thumbkit-site.json.tmp-\(dead)-1",
        ]
        let image = try #require(try Self.manifest(site).files.keys.first { $0.hasPrefix("images/bugs/") })
        let imageTemp =
            (image as NSString).deletingLastPathComponent + "/.\((image as NSString).lastPathComponent).tmp-\(dead)-9"
        // Look-alikes that are not the site's: no target of that name, a live writer, odd numbers.
        let others = [
            ".notes.txt.tmp-\(dead)-1", ".index.html.tmp-\(getpid())-5", ".index.html.tmp-\(dead)-x",
            "bugs/.index.html.tmp-\(dead)", "notes.tmp-\(dead)-1",
        ]
        for relative in own + [imageTemp] + others { _ = try fixture.workspace.write("site/" + relative, text: "t") }
        _ = try Self.generate(fixture, site)
        for relative in own + [imageTemp] {
            #expect(!FileManager.default.fileExists(atPath: site + "/" + relative), "\(relative)")
        }
        for relative in others { #expect(Self.text(site + "/" + relative) == "t", "\(relative)") }
    }

    @Test(arguments: CatalogBackend.all) func anOutputRowWithAnUnsafePathIsSkippedAndNothingOutsideIsLinked(
        backend: CatalogBackend
    ) throws {
        let (fixture, site) = try Self.built(backend)
        let secret = try fixture.workspace.write("data/secret.txt", text: "secret")
        let size = "secret".utf8.count
        let rows = try fixture.store.read { try $0.outputs() }.filter { $0.kind == .list }
        try #require(rows.count >= 2)
        // One row climbs out of the output folder; another is a symlink in it that leads out.
        try FileManager.default.createDirectory(atPath: fixture.out + "/x", withIntermediateDirectories: true)
        symlink(secret, fixture.out + "/bugs/leak.jpg")
        try fixture.store.write { tx in
            try tx.db.execute(
                "UPDATE outputs SET path = 'x/../../data/secret.txt', bytes = \(size) WHERE id = \(rows[0].id)")
            try tx.db.execute("UPDATE outputs SET path = 'bugs/leak.jpg', bytes = \(size) WHERE id = \(rows[1].id)")
        }
        let report = try Self.generate(fixture, site)
        #expect(report.problems.count == 2)
        #expect(
            report.problems.contains {
                $0.hasPrefix("x/../../data/secret.txt: output row \(rows[0].id) has an unsafe path")
            })
        #expect(report.problems.contains { $0.hasPrefix("bugs/leak.jpg: output row \(rows[1].id) has an unsafe path") })
        var linked = stat()
        var original = stat()
        stat(secret, &original)
        #expect(original.st_nlink == 1)
        for relative in OutputFolder(root: site).files(in: [""], includeHidden: true) {
            stat(site + "/" + relative, &linked)
            #expect(linked.st_ino != original.st_ino, "\(relative)")
        }
        #expect(!FileManager.default.fileExists(atPath: site + "/data/secret.txt"))
    }

    @Test func aMissingOrEmptyOutputFolderIsOneErrorNamingTheBuildToRun() throws {
        let (fixture, site) = try Self.built()
        let typo = fixture.workspace.path("ouy")
        let missing = catalogError {
            try SiteGenerator(store: fixture.store, outputDirectory: typo).generate(into: site)
        }
        #expect(
            missing == .notFound(path: typo, reason: "no output folder here (run 'thumbkit build --out \(typo)' first)")
        )
        let empty = fixture.workspace.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let unbuilt = catalogError {
            try SiteGenerator(store: fixture.store, outputDirectory: empty).generate(into: site)
        }
        #expect(
            unbuilt
                == .notFound(
                    path: empty,
                    reason: "none of the catalog's pictures is built here (run 'thumbkit build --out \(empty)' first)"))
        #expect(!FileManager.default.fileExists(atPath: site))
    }

    @Test(arguments: CatalogBackend.all) func datesAndSizesAreReadableWithMachineValuesForTheBrowser(
        backend: CatalogBackend
    ) throws {
        #expect(SiteText.readableBytes(1) == "1 byte" && SiteText.readableBytes(999) == "999 bytes")
        #expect(SiteText.readableBytes(12_345) == "12.3 KB" && SiteText.readableBytes(999_960) == "1.0 MB")
        #expect(SiteText.readableBytes(4_100_000_000) == "4.1 GB")
        let date = try #require(Timestamp.date(from: "2026-12-01T19:08:27Z"))
        #expect(SiteText.readableDate(date) == "1 Dec 2026, 19:08 UTC")

        let (fixture, site) = try Self.built(backend)
        _ = try Self.generate(fixture, site)
        let bug = try #require(try fixture.store.read { try $0.bug(title: "Potato Bug") })
        let html = try #require(Self.text(site + "/bugs/\(bug.id).html"))
        let iso = Timestamp.string(from: bug.updatedAt)
        #expect(html.contains("<time datetime=\"\(iso)\">\(SiteText.readableDate(bug.updatedAt))</time>"))
        let reader = try PageReader.read(site + "/bugs/\(bug.id).html")
        #expect(!reader.text.contains(iso))
        let row = try #require(try fixture.store.outputs(for: bug.ref).first)
        #expect(
            html.contains("<data class=\"bytes\" value=\"\(row.bytes)\">\(SiteText.readableBytes(row.bytes))</data>"))
        #expect(!html.contains("<td class=\"num\">\(row.bytes)</td>"))
        #expect(Self.text(site + "/" + SiteText.scriptPath) == SiteText.script)
    }
}
