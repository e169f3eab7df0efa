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

/// `thumbkit build` and the commands that build never destroy what is not theirs, and keep the
/// recipes they were given (issue 12, items 2 and 7).
struct BuildSafetyTests {
    /// As root, `setpriv` (util-linux) drops to `nobody` so that mode bits apply; as anyone else
    /// nothing is needed.
    static var asNobody: [ToolRequirement] {
        geteuid() == 0 ? [.program("/usr/bin/setpriv", package: "util-linux")] : []
    }

    typealias Run = CatalogCLITests.Run

    /// Every regular file below `root` with its bytes, except the catalog's own database files.
    static func snapshot(_ root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: root)
        while let item = walker?.nextObject() as? String {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + item, isDirectory: &isFolder),
                !isFolder.boolValue,
                !(item as NSString).lastPathComponent.hasPrefix("c.sqlite")
            else { continue }
            files[item] = FileManager.default.contents(atPath: root + "/" + item)
        }
        return files
    }

    /// The reproduction from the issue: `demo demo`, import, `build --out demo` deleted the 8 bug
    /// pictures. The build is refused, and every file of the demo folder is still there, unchanged.
    @Test func buildingIntoTheDemoFolderIsRefusedAndDeletesNoPicture() async throws {
        let workspace = try CLIWorkspace()
        let demo = workspace.path("demo")
        #expect(await Run(["demo", demo]).status == 0)
        let catalog = ["--catalog", workspace.path("c.sqlite")]
        #expect(await Run(["catalog", "import", demo + "/catalog.json"] + catalog).status == 0)
        let before = Self.snapshot(demo)
        #expect(before.keys.filter { $0.hasPrefix("bugs/") }.count == 8)
        let run = await Run(["build", "--out", demo] + catalog)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("thumbkit: \(demo): the output folder contains "))
        #expect(run.stdout == "0 made, 0 up to date, 0 removed, 1 failed\n")
        #expect(Self.snapshot(demo) == before)
        // Into its own folder the same catalog builds fine, and claims it.
        let fine = await Run(["build", "--out", workspace.path("out")] + catalog)
        #expect(fine.status == 0)
        #expect(FileManager.default.fileExists(atPath: workspace.path("out/.thumbkit-catalog")))
        #expect(Self.snapshot(demo) == before)
    }

    /// A catalog file truncated to 0 bytes used to be taken for a new, empty catalog whose build
    /// swept every output. It is refused, like a missing one, and the outputs stay.
    @Test func aZeroLengthCatalogIsRefusedByEveryCommandAndSweepsNothing() async throws {
        let workspace = try CLIWorkspace()
        let catalog = workspace.path("c.sqlite")
        _ = await Run(["catalog", "import", try workspace.importFile(), "--catalog", catalog])
        #expect(await Run(["build"] + CatalogCLITests.paths(workspace)).status == 0)
        let outputs = Self.snapshot(workspace.path("out"))
        #expect(outputs.count > 40)
        try Data().write(to: URL(fileURLWithPath: catalog))
        try? FileManager.default.removeItem(atPath: catalog + "-wal")
        try? FileManager.default.removeItem(atPath: catalog + "-shm")
        let message = "thumbkit: \(catalog): empty file (0 bytes), not a thumbkit catalog"
        let out = ["--out", workspace.path("out")]
        for argv in [
            ["build"] + out, ["catalog", "list"], ["catalog", "show", "1"], ["catalog", "rate", "1", "2"] + out,
            ["catalog", "import", workspace.path("catalog.json")], ["site", workspace.path("site")] + out,
        ] {
            let run = await Run(argv + ["--catalog", catalog])
            #expect(run.status == 1, "\(argv)")
            #expect(run.stderr.hasPrefix(message), "\(argv): \(run.stderr)")
        }
        #expect(Self.snapshot(workspace.path("out")) == outputs)
        #expect(FileManager.default.contents(atPath: catalog) == Data())
    }

    @Test func anotherCatalogsBuildIntoTheSameFolderIsRefused() async throws {
        let workspace = try CLIWorkspace()
        let file = try workspace.importFile()
        _ = await Run(["catalog", "import", file, "--catalog", workspace.path("c.sqlite")])
        _ = await Run(["catalog", "import", file, "--catalog", workspace.path("c2.sqlite")])
        #expect(await Run(["build"] + CatalogCLITests.paths(workspace)).status == 0)
        let outputs = Self.snapshot(workspace.path("out"))
        let run = await Run(["build", "--catalog", workspace.path("c2.sqlite"), "--out", workspace.path("out")])
        #expect(run.status == 1)
        #expect(run.stderr.contains(": the output folder belongs to another catalog (.thumbkit-catalog: "))
        #expect(Self.snapshot(workspace.path("out")) == outputs)
    }

    /// A recipe file that adds `bug-square` (10×10 pt at @1x).
    static func customRecipes(_ workspace: CLIWorkspace) throws -> String {
        try workspace.write(
            "custom.json",
            #"{"recipes": [{"name": "bug-square", "record": "bug", "kind": "list", "size": "10x10", "scales": [1]}]}"#)
    }

    /// The custom outputs below `out`.
    static func squares(_ workspace: CLIWorkspace) -> [String] {
        snapshot(workspace.path("out")).keys.filter { $0.contains("/bug-square.") }.sorted()
    }

    @Test func recipesGivenOnceAreKeptByLaterBuildsUntilBuiltinIsAsked() async throws {
        let workspace = try CLIWorkspace()
        _ = await Run(["catalog", "import", try workspace.importFile(), "--catalog", workspace.path("c.sqlite")])
        let paths = CatalogCLITests.paths(workspace)
        let custom = await Run(["build", "--recipes", try Self.customRecipes(workspace), "--json"] + paths)
        #expect(custom.status == 0)
        let made = try JSONDecoder().decode(BuildReport.self, from: Data(custom.stdout.utf8)).made
        #expect(Self.squares(workspace).count == 2)

        let plain = await Run(["build"] + paths)
        #expect(plain.stdout == "0 made, \(made) up to date, 0 removed, 0 failed\n")
        let rated = await Run(["catalog", "rate", "1", "4.5"] + paths)
        #expect(rated.status == 0 && rated.stdout.hasSuffix(" 0 failed\n"))
        let picture = try workspace.image("img/new.jpg", side: 30, seed: 9, format: .jpeg)
        let set = await Run(["catalog", "set-image", "bug:2", picture] + paths)
        #expect(set.status == 0)
        #expect(Self.squares(workspace).count == 2)
        #expect(
            try CatalogStore(path: workspace.path("c.sqlite")).outputs(for: .bug(2)).contains {
                $0.recipe.contains("bug-square")
            })

        // A bad recipe file changes nothing that is stored.
        let bad = await Run(["build", "--recipes", try workspace.write("bad.json", "{")] + paths)
        #expect(bad.status == 1)
        #expect(await Run(["build"] + paths).stdout.hasPrefix("0 made, \(made) up to date, 0 removed"))

        let builtin = await Run(["build", "--recipes", "builtin"] + paths)
        #expect(builtin.stdout == "0 made, \(made - 2) up to date, 2 removed, 0 failed\n")
        #expect(Self.squares(workspace).isEmpty)
        #expect(await Run(["build"] + paths).stdout == "0 made, \(made - 2) up to date, 0 removed, 0 failed\n")
    }

    /// `watch` builds what it imports with the catalog's stored recipes, not the built-in ones.
    @Test func watchBuildsWithTheStoredRecipes() async throws {
        let workspace = try CLIWorkspace()
        _ = await Run(["catalog", "import", try workspace.importFile(), "--catalog", workspace.path("c.sqlite")])
        let paths = CatalogCLITests.paths(workspace)
        #expect(await Run(["build", "--recipes", try Self.customRecipes(workspace)] + paths).status == 0)
        try workspace.image("inbox/bugs/Newcomer.png", seed: 6)
        let watch = await Run(["watch", workspace.path("inbox"), "--once", "--settle", "0"] + paths)
        #expect(watch.status == 0, "\(watch.stderr)")
        #expect(Self.squares(workspace).count == 3)
        #expect(await Run(["build"] + paths).stdout.hasSuffix(" 0 removed, 0 failed\n"))
    }

    /// The commands that only read work on a catalog nobody may write (a read-only mount, here
    /// a 0444 file in a 0555 folder), run as the unprivileged `nobody` (root writes through any
    /// mode bits); a command that writes says it cannot.
    @Test(.needs(asNobody), .tags(.realProcess)) func readingCommandsWorkOnACatalogThatCannotBeWritten() async throws {
        let setpriv = "/usr/bin/setpriv"
        guard ToolRequirement.require(Self.asNobody) else { return }
        let workspace = try CLIWorkspace()
        let folder = workspace.path("ro")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let catalog = folder + "/c.sqlite"
        _ = await Run(["catalog", "import", try workspace.importFile(), "--catalog", catalog])
        #expect(await Run(["build", "--catalog", catalog, "--out", workspace.path("out")]).status == 0)
        chmod(catalog, 0o444)
        chmod(folder, 0o555)
        defer { chmod(folder, 0o755) }
        func run(_ argv: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            let process = Process()
            let err = Pipe()
            let out = Pipe()
            if geteuid() == 0 {
                process.executableURL = URL(fileURLWithPath: setpriv)
                process.arguments =
                    ["--reuid=65534", "--regid=65534", "--clear-groups", TestBinary.thumbkit.path] + argv
            } else {
                process.executableURL = TestBinary.thumbkit
                process.arguments = argv
            }
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let outData = out.fileHandleForReading.readDataToEndOfFile()
            let errData = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (
                process.terminationStatus, String(decoding: outData, as: UTF8.self),
                String(decoding: errData, as: UTF8.self)
            )
        }
        let list = try run(["catalog", "list", "--catalog", catalog])
        #expect(list.status == 0 && list.stdout.contains("Potato Bug"), "\(list.stderr)")
        let show = try run(["catalog", "show", "1", "--catalog", catalog])
        #expect(show.status == 0 && show.stdout.hasPrefix("Potato Bug"), "\(show.stderr)")
        let export = try run(["catalog", "export", "--catalog", catalog])
        #expect(export.status == 0 && export.stdout.contains("\"Beetle\""), "\(export.stderr)")
        let rate = try run(["catalog", "rate", "1", "2", "--catalog", catalog, "--out", workspace.path("out")])
        #expect(rate.status == 1)
        #expect(rate.stderr.hasPrefix("thumbkit: \(catalog): cannot write the catalog: the file is read-only"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["c.sqlite"])
    }
}
