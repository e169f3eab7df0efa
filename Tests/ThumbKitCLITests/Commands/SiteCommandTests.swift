// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import ThumbKitCLI
@testable import ThumbKitSite

/// `thumbkit site` through `CLI.run`: what a user sees when the site cannot or may not be written.
struct SiteCommandTests {
    typealias Run = CatalogCLITests.Run

    /// An imported catalog (not built yet) in a fresh workspace.
    static func imported() async throws -> CLIWorkspace {
        let workspace = try CLIWorkspace()
        _ = await Run(["catalog", "import", try workspace.importFile(), "--catalog", workspace.path("c.sqlite")])
        return workspace
    }

    @Test func aMistypedOrUnbuiltOutputFolderIsOneLineAndExit1() async throws {
        let workspace = try await Self.imported()
        let catalog = ["--catalog", workspace.path("c.sqlite")]
        let typo = workspace.path("ouy")
        let mistyped = await Run(["site", workspace.path("site"), "--out", typo] + catalog)
        #expect(mistyped.status == 1 && mistyped.stdout.isEmpty)
        #expect(
            mistyped.stderr == "thumbkit: \(typo): no output folder here (run 'thumbkit build --out \(typo)' first)\n")
        try FileManager.default.createDirectory(atPath: workspace.path("out"), withIntermediateDirectories: true)
        let unbuilt = await Run(["site", workspace.path("site")] + CatalogCLITests.paths(workspace))
        #expect(unbuilt.status == 1 && unbuilt.stderr.split(separator: "\n").count == 1, "\(unbuilt.stderr)")
        #expect(unbuilt.stderr.contains("run 'thumbkit build --out \(workspace.path("out"))' first"))
        #expect(!FileManager.default.fileExists(atPath: workspace.path("site")))
    }

    @Test func aFolderThatIsNotASiteIsRefusedUnlessIntoExistingAndItsFilesSurvive() async throws {
        let workspace = try await Self.imported()
        #expect(await Run(["build"] + CatalogCLITests.paths(workspace)).status == 0)
        let site = workspace.path("web")
        try FileManager.default.createDirectory(atPath: site + "/images", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: site + "/bugs", withIntermediateDirectories: true)
        let foreign = ["web/images/mine.jpg", "web/bugs/custom.html", "web/notes.txt"]
        for relative in foreign { try workspace.write(relative, "mine: \(relative)") }

        let refused = await Run(["site", site] + CatalogCLITests.paths(workspace))
        #expect(refused.status == 1 && refused.stdout.isEmpty)
        #expect(refused.stderr.hasPrefix("thumbkit: \(site): folder is not empty and is not a thumbkit site"))
        #expect(refused.stderr.split(separator: "\n").count == 1)
        let written = await Run(["site", site, "--into-existing"] + CatalogCLITests.paths(workspace))
        #expect(written.status == 0 && written.stderr.isEmpty, "\(written.stderr)")
        let again = await Run(["site", site] + CatalogCLITests.paths(workspace))
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        for relative in foreign {
            #expect((try? String(contentsOfFile: workspace.path(relative), encoding: .utf8)) == "mine: \(relative)")
        }
        #expect(FileManager.default.fileExists(atPath: site + "/bugs/1.html"))
    }
}
