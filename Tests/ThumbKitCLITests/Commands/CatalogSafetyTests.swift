// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalog
import ThumbKitTestSupport

@testable import ThumbKitCLI

#if canImport(Glibc)
    import Glibc
#endif

/// Catalog commands that must not overwrite what is not theirs, accept a bad picture, or hang
/// (issue 12, items 6, 8, 13, 16, 18, 26, 27 and 29).
struct CatalogSafetyTests {
    typealias Run = CatalogCLITests.Run

    static func imported() async throws -> (CLIWorkspace, [String]) {
        let workspace = try CLIWorkspace()
        let catalog = ["--catalog", workspace.path("c.sqlite")]
        _ = await Run(["catalog", "import", try workspace.importFile()] + catalog)
        return (workspace, catalog)
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// A JPEG cut short after its header: it sniffs and parses as a JPEG but does not decode.
    static func truncatedJPEG(_ workspace: CLIWorkspace, _ relative: String) throws -> String {
        let good = try workspace.image(relative, side: 64, seed: 7, format: .jpeg)
        let data = try #require(bytes(good))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: good))
        return good
    }

    // MARK: item 8: export over the catalog

    @Test func exportRefusesTheCatalogAndItsCompanionFilesByAnyName() async throws {
        let (workspace, catalog) = try await Self.imported()
        let database = workspace.path("c.sqlite")
        try FileManager.default.createDirectory(atPath: workspace.path("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: workspace.path("link.sqlite"), withDestinationPath: database)
        try FileManager.default.linkItem(atPath: database, toPath: workspace.path("hard.sqlite"))
        let before = try #require(Self.bytes(database))
        for output in [
            database, database + "-wal", database + "-shm", database + "-journal", workspace.path("sub/../c.sqlite"),
            workspace.path("link.sqlite"), workspace.path("hard.sqlite"),
        ] {
            let run = await Run(["catalog", "export", "-o", output] + catalog)
            #expect(run.status == 2, "\(output)")
            #expect(run.stderr.contains("refusing to write the export over the catalog"), "\(output)")
            #expect(Self.bytes(database) == before, "\(output)")
        }
        #expect(await Run(["catalog", "list"] + catalog).status == 0)
        let fine = await Run(["catalog", "export", "-o", workspace.path("export.json")] + catalog)
        #expect(fine.status == 0 && FileManager.default.fileExists(atPath: workspace.path("export.json")))
    }

    // MARK: item 6 and 13: pictures checked before the catalog changes

    @Test func setImageWithABrokenPictureKeepsTheOldPictureAndOutputs() async throws {
        let (workspace, catalog) = try await Self.imported()
        _ = await Run(["build"] + CatalogCLITests.paths(workspace))
        let store = try CatalogStore(path: workspace.path("c.sqlite"))
        let image = try store.bugs()[0].image
        let outputs = try store.outputs(for: .bug(1))
        let broken = try Self.truncatedJPEG(workspace, "img/broken.jpg")
        let run = await Run(["catalog", "set-image", "1", broken] + CatalogCLITests.paths(workspace))
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("thumbkit: \(broken): "))
        #expect(try store.bugs()[0].image == image)
        #expect(try store.outputs(for: .bug(1)) == outputs)
        for row in outputs { #expect(FileManager.default.fileExists(atPath: workspace.path("out/" + row.path))) }
        let build = await Run(["build"] + CatalogCLITests.paths(workspace))
        #expect(build.status == 0 && build.stdout.hasSuffix(" 0 failed\n"))
        _ = catalog
    }

    @Test func setImageRefusesAPictureOverTheLimits() async throws {
        let (workspace, catalog) = try await Self.imported()
        let huge = workspace.path("img/huge.png")
        try Data(Self.pngHeader(width: 70_000, height: 1)).write(to: URL(fileURLWithPath: huge))
        let image = try CatalogStore(path: workspace.path("c.sqlite")).bugs()[0].image
        let run = await Run(["catalog", "set-image", "1", huge, "--no-build"] + catalog)
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(huge): ") && run.stderr.contains("65500"))
        #expect(try CatalogStore(path: workspace.path("c.sqlite")).bugs()[0].image == image)
    }

    @Test func importReportsABrokenPictureByPositionAndStaysBuildable() async throws {
        let workspace = try CLIWorkspace()
        try workspace.image("img/good.png", seed: 1)
        _ = try Self.truncatedJPEG(workspace, "img/broken.jpg")
        let file = try workspace.write(
            "c.json",
            #"{"bugs": [{"title": "Good", "image": "img/good.png"}, {"title": "Broken", "image": "img/broken.jpg"}]}"#)
        let run = await Run(["catalog", "import", file, "--catalog", workspace.path("c.sqlite")])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("thumbkit: \(file): bugs[1]: image 'img/broken.jpg': "))
        #expect(try CatalogStore(path: workspace.path("c.sqlite")).bugs().map(\.title) == ["Good"])
        let build = await Run(["build"] + CatalogCLITests.paths(workspace))
        #expect(build.status == 0 && build.stdout.hasSuffix(" 0 failed\n"))
    }

    /// Run as a child process with a deadline: a regression blocks in `open` or spins on
    /// `/dev/zero`, and the test then fails (the child is killed) instead of hanging.
    @Test(.tags(.realProcess)) func aFIFOOrDeviceIsRefusedAtOnceNotReadForever() throws {
        let workspace = try CLIWorkspace()
        try workspace.image("img/good.png", seed: 1)
        let fifo = workspace.path("img/fifo.png")
        #expect(mkfifo(fifo, 0o600) == 0)
        let catalog = workspace.path("c.sqlite")
        let file = try workspace.write(
            "c.json",
            """
            {"bugs": [{"title": "Good", "image": "img/good.png"}, {"title": "Pipe", "image": "img/fifo.png"},
                      {"title": "Zero", "image": "/dev/zero"}]}
            """)
        let imported = try WatchProcess(["catalog", "import", file, "--catalog", catalog], in: workspace.root)
        #expect(imported.exitStatus(timeout: 60) == 1)
        #expect(imported.stderr.contains("bugs[1]: image 'img/fifo.png': not a regular file"))
        #expect(imported.stderr.contains("bugs[2]: image '/dev/zero': not a regular file"))
        for picture in [fifo, "/dev/zero"] {
            let run = try WatchProcess(
                ["catalog", "set-image", "1", picture, "--no-build", "--catalog", catalog], in: workspace.root)
            #expect(run.exitStatus(timeout: 60) == 1, "\(picture)")
            #expect(run.stderr == "thumbkit: \(picture): not a regular file\n")
        }
    }

    // MARK: item 16: ids

    @Test func importAcceptsOnlyIdsFromOneTo2To53Minus1() async throws {
        let workspace = try CLIWorkspace()
        let file = try workspace.write(
            "c.json",
            """
            {"bugs": [{"id": 0, "title": "A"}, {"id": -5, "title": "B"}, {"id": 9223372036854775807, "title": "C"},
                      {"id": 9007199254740992, "title": "D"}, {"id": 9007199254740991, "title": "E"},
                      {"id": 4, "title": "F"}]}
            """)
        let run = await Run(["catalog", "import", file, "--catalog", workspace.path("c.sqlite")])
        #expect(run.status == 1)
        let range = "is not between 1 and 9007199254740991"
        #expect(
            run.stderr.split(separator: "\n") == [
                "thumbkit: \(file): bugs[0]: id 0 \(range)", "thumbkit: \(file): bugs[1]: id -5 \(range)",
                "thumbkit: \(file): bugs[2]: id 9223372036854775807 \(range)",
                "thumbkit: \(file): bugs[3]: id 9007199254740992 \(range)",
            ])
        let ids = try CatalogStore(path: workspace.path("c.sqlite")).bugs().map(\.id)
        #expect(ids == [4, 9_007_199_254_740_991])
    }

    // MARK: item 18: JSON errors in our words

    @Test func aBrokenImportFileNamesTheLineAndColumnNotSwiftInternals() async throws {
        let workspace = try CLIWorkspace()
        let file = try workspace.write("c.json", "{\"bugs\": [\n  {\"title\": \"\\ud800x\"}]}")
        let run = await Run(["catalog", "import", file, "--catalog", workspace.path("c.sqlite")])
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "thumbkit: \(file): not valid JSON: line 2, column 14: \\uD800 is not followed by a low "
                + "surrogate (\\uDC00 to \\uDFFF)\n")
    }

    // MARK: item 26: words

    @Test func oneWordingForAMissingFile() async throws {
        let (workspace, catalog) = try await Self.imported()
        let missing = workspace.path("img/none.png")
        let setImage = await Run(["catalog", "set-image", "1", missing] + catalog)
        #expect(setImage.status == 1 && setImage.stderr == "thumbkit: \(missing): no such file or directory\n")
        let json = workspace.path("none.json")
        let importing = await Run(["catalog", "import", json] + catalog)
        #expect(importing.status == 1 && importing.stderr == "thumbkit: \(json): no such file or directory\n")
        let noCatalog = await Run(["catalog", "list", "--catalog", workspace.path("none.sqlite")])
        #expect(noCatalog.stderr.hasPrefix("thumbkit: \(workspace.path("none.sqlite")): no such file or directory ("))
    }

    @Test func listAndExportUseTheSameIdsAndCountsAgreeWithTheirNouns() async throws {
        let (workspace, catalog) = try await Self.imported()
        let listed = await Run(["catalog", "list", "--json"] + catalog)
        let exported = await Run(["catalog", "export"] + catalog)
        struct Listing: Decodable {
            struct Row: Decodable { let id: Int }
            let bugs: [Row]
            let foods: [Row]
        }
        let listing = try JSONDecoder().decode(Listing.self, from: Data(listed.stdout.utf8))
        let document = try JSONDecoder().decode(CatalogDocument.self, from: Data(exported.stdout.utf8))
        #expect(listing.bugs.map(\.id) == document.bugs.map(\.id))
        #expect(listing.foods.map(\.id) == document.foods.map(\.id))
        let text = await Run(["catalog", "list"] + catalog)
        #expect(text.stdout.contains("FOODS (1 in 1 category)"))
        // Its own (unbuilt) output folder: the default, ./thumbkit-out, may be another
        // catalog's (scripts/run's demo), which remove rightly refuses to touch.
        _ = await Run(["catalog", "remove", "2", "--out", workspace.path("out")] + catalog)
        let shown = await Run(["catalog", "show", "1"] + catalog)
        #expect(shown.stdout.contains("the average (the only bug: min 3.5, average 3.5, max 3.5)"))
    }

    @Test func demoIntoAFileSaysSoInItsOwnWords() async throws {
        let workspace = try CLIWorkspace()
        let notes = try workspace.write("notes.txt", "mine")
        let run = await Run(["demo", notes])
        #expect(run.status == 1)
        #expect(run.stderr == "thumbkit: \(notes): is a file, not a folder\n")
        #expect(Self.bytes(notes) == Data("mine".utf8))
    }

    // MARK: item 27: catalog show fits a terminal

    @Test func showKeepsItsSummaryLinesShort() async throws {
        let (workspace, catalog) = try await Self.imported()
        _ = await Run(["build"] + CatalogCLITests.paths(workspace))
        let shown = await Run(["catalog", "show", "1"] + catalog)
        let summary = shown.stdout.split(separator: "\n").filter {
            $0.hasPrefix("  outputs") || $0.hasPrefix("  catalog") || $0.hasPrefix("  rating")
        }
        #expect(summary.count == 3)
        for line in summary { #expect(line.count <= 80, "\(line)") }
    }

    /// A PNG of a `width`×`height` RGB image: signature, IHDR, an IDAT of junk (the size is
    /// refused before any pixel is read) and IEND, each chunk with its CRC.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in body {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return be(UInt32(data.count)) + body + be(~crc)
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", be(width) + be(height) + [8, 2, 0, 0, 0])
            + chunk("IDAT", Array("junk".utf8)) + chunk("IEND", [])
    }
}
